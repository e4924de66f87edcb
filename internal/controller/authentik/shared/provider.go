package shared

import (
	"context"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
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
		err = Wrap(err, resp, errGetApp, slug, provider)
		if IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	_, m, found, perr := provenance.ExtractFromText(a.GetMetaDescription())
	if !found || perr != nil {
		return nil, nil
	}
	return &m, nil
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
// ownership of the provider with that ID only. A provider found by name while the resource
// names another, vanished, ID (someone deleted ours and made a same-named one) is not the one
// recorded; unrecorded marks it, and it is described as unmarked, so the engine treats it like
// any provider made by hand.
func DescribeProvider(pk int32, typeName, name string, appMarker *provenance.Marker, installation string, unrecorded bool) adoption.Description {
	d := adoption.Description{ID: strconv.Itoa(int(pk)), Type: typeName, Key: name, Markerless: true}
	switch {
	case appMarker != nil && appMarker.Installation != installation:
		d.Markerless, d.Marker = false, appMarker
	case unrecorded:
		d.Markerless = false
	}
	return d
}

// Unrecorded reports whether a provider found by name is not the one the resource's external
// name records (see DescribeProvider).
func Unrecorded(mg metav1.Object, pk int32) bool {
	id := meta.GetExternalName(mg)
	return id != "" && id != strconv.Itoa(int(pk))
}
