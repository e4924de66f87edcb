package authentikapiserver

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

func TestApplicationLifecycle(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	prov, _, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*api.NewOAuth2ProviderRequest("grafana", authz, inval,
		[]api.RedirectURIRequest{*api.NewRedirectURIRequest(api.MATCHINGMODEENUM_STRICT, "https://grafana.example.com/login/generic_oauth")})).Execute()
	if err != nil {
		t.Fatal(err)
	}

	req := api.NewApplicationRequest("Grafana", "grafana")
	req.SetProvider(prov.Pk)
	req.SetMetaDescription("dashboards")
	app, resp, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*req).Execute()
	if err != nil || status(resp) != http.StatusCreated {
		t.Fatalf("create: %d %v", status(resp), err)
	}
	if app.Pk != app.PbmUuid {
		t.Errorf("pk %s != pbm_uuid %s", app.Pk, app.PbmUuid)
	}
	if got, want := app.GetLaunchUrl(), "https://grafana.example.com"; got != want {
		t.Errorf("launch_url = %q, want %q (origin of the first redirect URI)", got, want)
	}
	if got := app.ProviderObj.Get(); got == nil || got.GetAssignedApplicationSlug() != "grafana" {
		t.Errorf("provider_obj = %+v, want assigned to grafana", got)
	}

	got, _, err := e.c.CoreAPI.CoreApplicationsRetrieve(e.ctx, "grafana").Execute()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(app.Name, got.Name); diff != "" {
		t.Error(diff)
	}

	patch := api.NewPatchedApplicationRequest()
	patch.SetMetaPublisher("Grafana Labs")
	got, _, err = e.c.CoreAPI.CoreApplicationsPartialUpdate(e.ctx, "grafana").PatchedApplicationRequest(*patch).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if got.GetMetaPublisher() != "Grafana Labs" || got.GetMetaDescription() != "dashboards" {
		t.Errorf("patch kept/changed the wrong fields: publisher %q description %q", got.GetMetaPublisher(), got.GetMetaDescription())
	}

	// PUT only touches the fields it carries, like DRF.
	put := api.NewApplicationRequest("Grafana 2", "grafana")
	got, _, err = e.c.CoreAPI.CoreApplicationsUpdate(e.ctx, "grafana").ApplicationRequest(*put).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Grafana 2" || got.GetMetaPublisher() != "Grafana Labs" {
		t.Errorf("put: name %q publisher %q", got.Name, got.GetMetaPublisher())
	}

	list, _, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Slug("grafana").Execute()
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Results) != 1 || list.Results[0].Slug != "grafana" {
		t.Errorf("list ?slug=grafana = %d results", len(list.Results))
	}

	if _, err := e.c.CoreAPI.CoreApplicationsDestroy(e.ctx, "grafana").Execute(); err != nil {
		t.Fatal(err)
	}
	_, resp, err = e.c.CoreAPI.CoreApplicationsRetrieve(e.ctx, "grafana").Execute()
	if status(resp) != http.StatusNotFound {
		t.Fatalf("get after delete: %d %v", status(resp), err)
	}
	var oerr *api.GenericOpenAPIError
	if !errors.As(err, &oerr) {
		t.Fatalf("err %T", err)
	}
	if diff := cmp.Diff(`{"detail":"No Application matches the given query."}`, string(oerr.Body())); diff != "" {
		t.Errorf("404 body (-want +got):\n%s", diff)
	}
}

func TestApplicationValidationErrors(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	prov, _, err := e.c.ProvidersAPI.ProvidersSamlCreate(e.ctx).SAMLProviderRequest(*api.NewSAMLProviderRequest("sp", authz, inval, "https://sp.example.com/acs")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	first := api.NewApplicationRequest("First", "first")
	first.SetProvider(prov.Pk)
	if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*first).Execute(); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		req  func() *api.ApplicationRequest
		want map[string]any
	}{
		{
			name: "duplicate slug",
			req:  func() *api.ApplicationRequest { return api.NewApplicationRequest("Other", "first") },
			want: map[string]any{"slug": []any{"Application with this slug already exists."}},
		},
		{
			name: "provider already used by another application",
			req: func() *api.ApplicationRequest {
				r := api.NewApplicationRequest("Second", "second")
				r.SetProvider(prov.Pk)
				return r
			},
			want: map[string]any{"provider": []any{"Application with this provider already exists."}},
		},
		{
			name: "provider does not exist",
			req: func() *api.ApplicationRequest {
				r := api.NewApplicationRequest("Third", "third")
				r.SetProvider(999)
				return r
			},
			want: map[string]any{"provider": []any{`Invalid pk "999" - object does not exist.`}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, resp, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*tc.req()).Execute()
			if status(resp) != http.StatusBadRequest {
				t.Fatalf("status %d, err %v", status(resp), err)
			}
			if diff := cmp.Diff(tc.want, validationError(t, err)); diff != "" {
				t.Errorf("field errors (-want +got):\n%s", diff)
			}
		})
	}
}

// Deleting a provider leaves its application in place with provider null
// (on_delete=SET_DEFAULT).
func TestDeletingProviderDetachesApplication(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	prov, _, err := e.c.ProvidersAPI.ProvidersProxyCreate(e.ctx).ProxyProviderRequest(*api.NewProxyProviderRequest("proxy", authz, inval, "https://app.example.com")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	req := api.NewApplicationRequest("App", "app")
	req.SetProvider(prov.Pk)
	if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*req).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.ProvidersAPI.ProvidersProxyDestroy(e.ctx, prov.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	app, _, err := e.c.CoreAPI.CoreApplicationsRetrieve(e.ctx, "app").Execute()
	if err != nil {
		t.Fatal(err)
	}
	if app.Provider.IsSet() && app.Provider.Get() != nil {
		t.Errorf("provider = %v, want null", *app.Provider.Get())
	}
	if app.ProviderObj.Get() != nil {
		t.Errorf("provider_obj = %+v, want null", app.ProviderObj.Get())
	}
}
