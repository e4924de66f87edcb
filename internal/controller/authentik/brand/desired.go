package brand

import (
	"context"
	"fmt"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const errGetApplication = "cannot read application %q (spec.forProvider.defaultApplication)"

// A flowField is one of the brand's flows: its use (the key in status.atProvider.flows), its
// spec field and its wire field.
type flowField struct {
	use, spec, wire string
	slug            func(*v1alpha1.BrandParameters) *string
}

var flowFields = []flowField{
	{"authentication", "authenticationFlow", "flow_authentication", func(p *v1alpha1.BrandParameters) *string { return p.AuthenticationFlow }},
	{"invalidation", "invalidationFlow", "flow_invalidation", func(p *v1alpha1.BrandParameters) *string { return p.InvalidationFlow }},
	{"recovery", "recoveryFlow", "flow_recovery", func(p *v1alpha1.BrandParameters) *string { return p.RecoveryFlow }},
	{"unenrollment", "unenrollmentFlow", "flow_unenrollment", func(p *v1alpha1.BrandParameters) *string { return p.UnenrollmentFlow }},
	{"userSettings", "userSettingsFlow", "flow_user_settings", func(p *v1alpha1.BrandParameters) *string { return p.UserSettingsFlow }},
	{"deviceCode", "deviceCodeFlow", "flow_device_code", func(p *v1alpha1.BrandParameters) *string { return p.DeviceCodeFlow }},
}

// desiredBrand is what the spec sets in authentik's wire format, flows and the default
// application as pks; attributes apart, since only their managed keys compare.
type desiredBrand struct {
	fields     shared.Fields
	attributes map[string]any
}

// desired resolves the spec: one read per flow slug (shared with the kind's other reconciles
// while fresh) and one of the default application.
func desired(ctx context.Context, c *api.APIClient, r *shared.Resolver, mg mr) (desiredBrand, error) {
	fp := mg.Parameters()
	attrs, err := authentik.DecodeAttributes(fp.Attributes)
	if err != nil {
		return desiredBrand{}, errors.Wrapf(err, errAttributes, fp.Domain)
	}
	f := shared.Fields{"domain": fp.Domain}
	f.Bool("default", fp.Default)
	f.Str("branding_title", fp.BrandingTitle)
	f.Str("branding_logo", fp.BrandingLogo)
	f.Str("branding_favicon", fp.BrandingFavicon)
	for _, ff := range flowFields {
		slug := ff.slug(fp)
		if slug == nil || *slug == "" {
			continue
		}
		pk, err := r.Flow(ctx, ff.spec, *slug)
		if err != nil {
			return desiredBrand{}, err
		}
		f[ff.wire] = pk
	}
	if s := fp.DefaultApplication; s != nil && *s != "" {
		a, resp, err := c.CoreAPI.CoreApplicationsRetrieve(ctx, *s).Execute()
		if err != nil {
			err = authentik.Wrap(err, resp, errGetApplication, *s)
			if authentik.IsNotFound(err) {
				return desiredBrand{}, &shared.MissingError{What: fmt.Sprintf("application %q", *s), Field: "defaultApplication"}
			}
			return desiredBrand{}, err
		}
		f["default_application"] = a.Pk
	}
	f.Str("web_certificate", fp.WebCertificateID)
	return desiredBrand{fields: f, attributes: attrs}, nil
}

// compare compares the managed fields and the attributes the spec sets (without the marker,
// which the engine judges). Changed holds "attributes" when a managed key differs.
func (d desiredBrand) compare(b api.Brand) (shared.Comparison, error) {
	have, err := shared.ToFields(b)
	if err != nil {
		return shared.Comparison{}, err
	}
	c := shared.Compare(d.fields, have, nil)
	if d.attributes != nil {
		got := authentik.ManagedAttributes(b.Attributes, d.attributes)
		if diff := cmp.Diff(d.attributes, got); diff != "" {
			c.Changed["attributes"] = d.attributes
			c.Diff += "attributes: " + diff
		}
	}
	return c, nil
}
