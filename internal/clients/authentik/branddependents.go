package authentik

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

const (
	typeBrand     = "authentik brand"
	errListBrands = "cannot list the authentik brands that use %s"
)

// Brand fields that name other objects, in authentik's wire format.
var brandFlowFields = []func(*api.Brand) string{
	(*api.Brand).GetFlowAuthentication, (*api.Brand).GetFlowInvalidation, (*api.Brand).GetFlowRecovery,
	(*api.Brand).GetFlowUnenrollment, (*api.Brand).GetFlowUserSettings, (*api.Brand).GetFlowDeviceCode,
	(*api.Brand).GetFlowUserSwitch, (*api.Brand).GetFlowLockdown, (*api.Brand).GetFlowRequest,
}

// BrandsOfFlow lists the brands that use the flow: authentik clears the brand's field
// (SET_NULL), so the brand's domain loses its login, logout or recovery flow.
func BrandsOfFlow(ctx context.Context, c *api.APIClient, pk, what string) ([]adoption.Dependent, error) {
	return brandsUsing(ctx, c, what, func(b api.Brand) bool {
		for _, f := range brandFlowFields {
			if f(&b) == pk {
				return true
			}
		}
		return false
	})
}

// BrandsOfApplication lists the brands whose default application the application is:
// authentik clears the field.
func BrandsOfApplication(ctx context.Context, c *api.APIClient, pk, what string) ([]adoption.Dependent, error) {
	return brandsUsing(ctx, c, what, func(b api.Brand) bool { return b.GetDefaultApplication() == pk })
}

// BrandsOfKeypair lists the brands whose web certificate the pair is, or that list it as a
// client certificate: authentik clears the field or drops it from the list.
func BrandsOfKeypair(ctx context.Context, c *api.APIClient, pk, what string) ([]adoption.Dependent, error) {
	return brandsUsing(ctx, c, what, func(b api.Brand) bool {
		if b.GetWebCertificate() == pk {
			return true
		}
		for _, cc := range b.ClientCertificates {
			if cc == pk {
				return true
			}
		}
		return false
	})
}

// brandReads joins the deletions' reads of every brand, the same question for each
// application, flow and key pair deleted (see allBrands).
var brandReads clients.JoinedReads[*api.APIClient, []api.Brand]

// allBrands reads every brand, with a list that started after the call: deletions asking at
// about the same time share it (clients.JoinedReads), so a teardown of many applications asks
// authentik a few times rather than once per application. The answer is shared: read only.
func allBrands(ctx context.Context, c *api.APIClient) ([]api.Brand, error) {
	return brandReads.Read(ctx, c, func(ctx context.Context) ([]api.Brand, error) {
		return ListRequest(ctx, c.CoreAPI.CoreBrandsList(ctx))
	})
}

// brandsUsing reads every brand (there are few; authentik cannot filter by application or
// client certificate) and describes those that use the object by their marker.
func brandsUsing(ctx context.Context, c *api.APIClient, what string, uses func(api.Brand) bool) ([]adoption.Dependent, error) {
	bs, err := allBrands(ctx, c)
	if err != nil {
		return nil, errors.Wrapf(err, errListBrands, what)
	}
	var out []adoption.Dependent
	for _, b := range bs {
		if uses(b) {
			out = append(out, adoption.Dependent{
				Description: adoption.Description{ID: b.BrandUuid, Type: typeBrand, Key: b.Domain, Marker: AttributeMarker(b.Attributes)},
				Kind:        v1alpha1.BrandGroupKind.String(), ExternalName: b.BrandUuid,
			})
		}
	}
	return out, nil
}
