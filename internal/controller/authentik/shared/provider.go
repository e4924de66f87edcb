package shared

import (
	"context"
	"strconv"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errBadPK  = "external name %q is not an authentik provider ID (an integer); set crossplane.io/external-name to the provider's ID, or remove it to look the provider up by name"
	errGetApp = "cannot read application %q that uses provider %q"
)

// ParsePK parses a provider's external name.
func ParsePK(id string) (int32, error) {
	pk, err := strconv.ParseInt(id, 10, 32)
	if err != nil || pk <= 0 {
		return 0, errors.Errorf(errBadPK, id)
	}
	return int32(pk), nil
}

// AppMarker returns the provenance marker of the application with the slug, nil when there is
// no such application or it carries none. It is read for providers found by name: see
// DescribeProvider.
func (c Client) AppMarker(ctx context.Context, provider, slug string) (*provenance.Marker, error) {
	if slug == "" {
		return nil, nil
	}
	a, resp, err := c.API.CoreAPI.CoreApplicationsRetrieve(ctx, slug).Execute()
	if err != nil {
		err = authentik.Wrap(err, resp, errGetApp, slug, provider)
		if authentik.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	// A description whose marker does not parse carries none, as everywhere else.
	if _, m, found, perr := provenance.ExtractFromText(a.GetMetaDescription()); found && perr == nil {
		return &m, nil
	}
	return nil, nil
}

// DescribeProvider presents a provider to the adoption engine.
//
// A provider has no field that could carry a marker (only its name is free text), so provider
// kinds are markerless: the engine keeps the marker on the managed resource and anything found
// by name that the resource did not record as its own is AdoptionRequired under
// FailOnConflict (see docs/adr/0002-authentik-provenance.md).
//
// One thing authentik does tell about a provider found by name is the application that uses
// it. When that application carries another installation's marker, the provider is that
// installation's too: it is described with that marker, so the engine reports a conflict
// naming the other installation, even under AdoptExisting. appMarker is only set for providers
// found by name; a provider read by its external name is always judged by the resource's own
// record.
//
// The resource's record is the marker annotation together with the external name: it proves
// ownership of the provider with that ID only, and the engine applies it to no other (a
// provider found by name while the resource names another, vanished, ID is judged unmarked).
// The description stays markerless for such a provider too, so that adopting it records the
// adoption in the annotation rather than leaving the vanished provider's "created" marker there.
func DescribeProvider(pk int32, typeName, name string, appMarker *provenance.Marker, installation string) adoption.Description {
	d := adoption.Description{ID: strconv.Itoa(int(pk)), Type: typeName, Key: name, Markerless: true}
	if appMarker != nil && appMarker.Installation != installation {
		d.Markerless, d.Marker = false, appMarker
	}
	return d
}
