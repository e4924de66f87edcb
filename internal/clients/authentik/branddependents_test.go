package authentik

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The brands that name a flow, an application or a certificate-key pair are listed with
// their markers; brands that name other objects are not; a failed list names the object.
func TestBrandsUsing(t *testing.T) {
	s := startServer(t)
	c := s.client(nil)
	seed := s.seed
	ours := provenance.Marker{Installation: "i", Resource: "Brand.authentik.identity.crossplane.io/b", Origin: provenance.OriginCreated}
	flow := seed("flows/instances", map[string]any{"slug": "f", "name": "f", "title": "f", "designation": "recovery"})["pk"].(string)
	app := seed("core/applications", map[string]any{"name": "A", "slug": "a"})["pk"].(string)
	cert := seed("core/applications", map[string]any{"name": "B", "slug": "b"})["pk"].(string) // any UUID no brand names
	b1 := seed("core/brands", map[string]any{"domain": "one.example.com", "flow_recovery": flow, "default_application": app,
		"attributes": map[string]any{MarkerAttribute: ours.Encode()}})["brand_uuid"].(string)
	seed("core/brands", map[string]any{"domain": "two.example.com"})

	want := []adoption.Dependent{{Description: adoption.Description{ID: b1, Type: typeBrand, Key: "one.example.com", Marker: &ours},
		Kind: "Brand.authentik.identity.crossplane.io", ExternalName: b1}}
	cases := map[string]struct {
		list func() ([]adoption.Dependent, error)
		want []adoption.Dependent
	}{
		"flow": {func() ([]adoption.Dependent, error) { return BrandsOfFlow(t.Context(), c, flow, `flow "f"`) }, want},
		"application": {func() ([]adoption.Dependent, error) {
			return BrandsOfApplication(t.Context(), c, app, `application "a"`)
		}, want},
		"keypair": {func() ([]adoption.Dependent, error) {
			return BrandsOfKeypair(t.Context(), c, cert, `certificate-key pair "k"`)
		}, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.list()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
	s.InjectFault(authentikapiserver.Fault{Method: "GET", PathPrefix: "/core/brands/", Status: 503})
	if _, err := BrandsOfFlow(t.Context(), c, flow, `flow "f"`); err == nil || !strings.Contains(err.Error(), `flow "f"`) {
		t.Errorf("a failed list: want an error naming the flow, got %v", err)
	}
}
