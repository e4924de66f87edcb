package keystone

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// What a service, a region or an endpoint would take with it, as the catalog's lists say.
func TestCatalogDependents(t *testing.T) {
	ours := provenance.Marker{Installation: "i", Resource: "Endpoint.keystone.identity.crossplane.io/e", Origin: provenance.OriginCreated}
	endpointKind, regionKind := "Endpoint.keystone.identity.crossplane.io", "Region.keystone.identity.crossplane.io"
	truncated := adoption.Dependent{Description: adoption.Description{ID: "unknown", Type: typeEndpoint,
		Key: "more, not listed: Keystone truncated the list at its list_limit"}}
	cases := map[string]struct {
		answers map[string]string
		list    func(context.Context, *gophercloud.ServiceClient) ([]adoption.Dependent, error)
		want    []adoption.Dependent
		wantErr bool
	}{
		"EndpointsOfAService": {
			answers: map[string]string{"/v3/endpoints?service_id=s": `{"endpoints": [
				{"id": "e1", "service_id": "s", "interface": "public", "url": "https://a", "region_id": "r", "crossplane_provenance": "` + ours.Encode() + `"},
				{"id": "e2", "service_id": "s", "interface": "admin", "url": "https://b", "crossplane_provenance": {"x": 1}}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return EndpointsOfService(ctx, sc, "s")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "e1", Type: typeEndpoint, Key: "public https://a in region r", Marker: &ours}, Kind: endpointKind, ExternalName: "e1"},
				{Description: adoption.Description{ID: "e2", Type: typeEndpoint, Key: "admin https://b"}, Kind: endpointKind, ExternalName: "e2"},
			},
		},
		"ATruncatedEndpointListStillBlocks": {
			answers: map[string]string{"/v3/endpoints?region_id=r": `{"endpoints": [{"id": "e1", "interface": "public", "url": "https://a", "region_id": "r"}], "truncated": true}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return EndpointsInRegion(ctx, sc, "r")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "e1", Type: typeEndpoint, Key: "public https://a in region r"}, Kind: endpointKind, ExternalName: "e1"},
				truncated,
			},
		},
		"AFailedEndpointListDecidesNothing": {
			answers: map[string]string{"/v3/endpoints?service_id=s": "500"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return EndpointsOfService(ctx, sc, "s")
			},
			wantErr: true,
		},
		"ChildRegions": {
			answers: map[string]string{"/v3/regions?parent_region_id=p": `{"regions": [{"id": "c1", "parent_region_id": "p"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ChildRegions(ctx, sc, "p")
			},
			want: []adoption.Dependent{{Description: adoption.Description{ID: "c1", Type: typeRegion, Key: "c1"}, Kind: regionKind, ExternalName: "c1"}},
		},
		"AFailedRegionListDecidesNothing": {
			answers: map[string]string{"/v3/regions?parent_region_id=p": "500"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ChildRegions(ctx, sc, "p")
			},
			wantErr: true,
		},
		"ProjectsOfAnEndpoint": {
			answers: map[string]string{"/v3/OS-EP-FILTER/endpoints/e1/projects": `{"projects": [{"id": "p1", "name": "web"}, {"id": "p2"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ProjectsOfEndpoint(ctx, sc, "e1")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "e1/p1", Type: typeEndpointFor, Key: "endpoint e1 for project web"}},
				{Description: adoption.Description{ID: "e1/p2", Type: typeEndpointFor, Key: "endpoint e1 for project p2"}},
			},
		},
		"AFailedAssociationListDecidesNothing": {
			answers: map[string]string{"/v3/OS-EP-FILTER/endpoints/e1/projects": "500"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ProjectsOfEndpoint(ctx, sc, "e1")
			},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.list(context.Background(), cannedKeystone(t, tc.answers))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error: got %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
