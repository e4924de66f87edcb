package shared

import (
	"context"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// Dependents lists the applications that use the provider, as their provider or as a
// backchannel provider, and the outposts that serve it: authentik keeps them and detaches the
// provider, which changes them. An application or outpost our resource is deleting only makes
// the deletion wait (the engine finds that resource by the object's marker).
func (d *ProviderDriver[MG, P, Req, Patch]) Dependents(ctx context.Context, _ MG, o Observed[P]) ([]adoption.Dependent, error) {
	po := d.kind.Calls.object(&o.Provider)
	var out []adoption.Dependent
	for _, slug := range []string{po.GetAssignedApplicationSlug(), po.GetAssignedBackchannelApplicationSlug()} {
		if slug == "" {
			continue
		}
		m, err := d.AppMarker(ctx, po.GetName(), slug)
		if err != nil {
			return nil, err
		}
		out = append(out, authentik.AssignedApplication(slug, m))
	}
	ops, err := authentik.OutpostsOfProvider(ctx, d.API, po.GetPk(), po.GetName())
	if err != nil {
		return nil, err
	}
	return append(out, ops...), nil
}
