package propertymapping

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// A mappingType is one property mapping type: the block that selects it, authentik's model,
// the calls of its endpoint in the generated client and the fields its block sets.
type mappingType struct {
	block string
	model string
	list  func(ctx context.Context, c *api.APIClient, name string, page int32) ([]shared.Fields, int32, *http.Response, error)
	get   func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error)
	post  func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error)
	patch func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error)
	del   func(ctx context.Context, c *api.APIClient, pk string) (*http.Response, error)
	// fields are the block's settings in authentik's wire format.
	fields func(fp *v1alpha1.PropertyMappingParameters, f shared.Fields)
}

// typeOf is the type the spec's block selects; nil for a spec without one (CEL forbids it).
func typeOf(fp *v1alpha1.PropertyMappingParameters) *mappingType {
	switch {
	case fp.Scope != nil:
		return scope
	case fp.SAML != nil:
		return saml
	}
	return nil
}

// fieldsOf renders an API object, or the error that came with it.
func fieldsOf[T any](v *T, resp *http.Response, err error) (shared.Fields, *http.Response, error) {
	if err != nil {
		return nil, resp, err
	}
	f, err := shared.ToFields(v)
	return f, resp, err
}

func listOf[T any](items []T, next int32, resp *http.Response, err error) ([]shared.Fields, int32, *http.Response, error) {
	if err != nil {
		return nil, 0, resp, err
	}
	out := make([]shared.Fields, 0, len(items))
	for i := range items {
		f, err := shared.ToFields(items[i])
		if err != nil {
			return nil, 0, resp, err
		}
		out = append(out, f)
	}
	return out, next, resp, nil
}

var scope = &mappingType{
	block: "scope",
	model: "authentik_providers_oauth2.scopemapping",
	list: func(ctx context.Context, c *api.APIClient, name string, page int32) ([]shared.Fields, int32, *http.Response, error) {
		l, resp, err := c.PropertymappingsAPI.PropertymappingsProviderScopeList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return listOf[api.ScopeMapping](nil, 0, resp, err)
		}
		return listOf(l.Results, authentik.NextPage(l.Pagination), resp, nil)
	},
	get: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderScopeRetrieve(ctx, pk).Execute())
	},
	post: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
		req, err := shared.Decode[api.ScopeMappingRequest](f)
		if err != nil {
			return nil, nil, err
		}
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderScopeCreate(ctx).ScopeMappingRequest(req).Execute())
	},
	patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
		req, err := shared.Decode[api.PatchedScopeMappingRequest](f)
		if err != nil {
			return nil, nil, err
		}
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderScopePartialUpdate(ctx, pk).PatchedScopeMappingRequest(req).Execute())
	},
	del: func(ctx context.Context, c *api.APIClient, pk string) (*http.Response, error) {
		return c.PropertymappingsAPI.PropertymappingsProviderScopeDestroy(ctx, pk).Execute()
	},
	fields: func(fp *v1alpha1.PropertyMappingParameters, f shared.Fields) {
		f["scope_name"] = fp.Scope.ScopeName
		if fp.Scope.Description != nil {
			f["description"] = *fp.Scope.Description
		}
	},
}

var saml = &mappingType{
	block: "saml",
	model: "authentik_providers_saml.samlpropertymapping",
	list: func(ctx context.Context, c *api.APIClient, name string, page int32) ([]shared.Fields, int32, *http.Response, error) {
		l, resp, err := c.PropertymappingsAPI.PropertymappingsProviderSamlList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return listOf[api.SAMLPropertyMapping](nil, 0, resp, err)
		}
		return listOf(l.Results, authentik.NextPage(l.Pagination), resp, nil)
	},
	get: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderSamlRetrieve(ctx, pk).Execute())
	},
	post: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
		req, err := shared.Decode[api.SAMLPropertyMappingRequest](f)
		if err != nil {
			return nil, nil, err
		}
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderSamlCreate(ctx).SAMLPropertyMappingRequest(req).Execute())
	},
	patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
		req, err := shared.Decode[api.PatchedSAMLPropertyMappingRequest](f)
		if err != nil {
			return nil, nil, err
		}
		return fieldsOf(c.PropertymappingsAPI.PropertymappingsProviderSamlPartialUpdate(ctx, pk).PatchedSAMLPropertyMappingRequest(req).Execute())
	},
	del: func(ctx context.Context, c *api.APIClient, pk string) (*http.Response, error) {
		return c.PropertymappingsAPI.PropertymappingsProviderSamlDestroy(ctx, pk).Execute()
	},
	fields: func(fp *v1alpha1.PropertyMappingParameters, f shared.Fields) {
		f["saml_name"] = fp.SAML.SAMLName
		if fn := fp.SAML.FriendlyName; fn != nil {
			// The empty string clears it: authentik keeps no friendly name as null.
			f["friendly_name"] = nil
			if *fn != "" {
				f["friendly_name"] = *fn
			}
		}
	},
}
