package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

func TestObjectLists(t *testing.T) {
	input := map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
		"objectLists": []any{map[string]any{
			"resource": "oauth2provider", "fromFieldPath": "spec.sso.redirectURIs",
			"toFieldPath": "spec.forProvider.redirectUris", "key": "url", "fields": map[string]any{"matchingMode": "strict"},
		}}}
	uris := []any{"https://a/cb", "https://b/cb", "https://c/cb", "https://d/cb", "https://e/cb", "https://f/cb"}

	cases := map[string]struct {
		spec    map[string]any
		desired bool
		want    any
	}{
		"EveryStringBecomesAnObject": {
			spec: map[string]any{"sso": map[string]any{"redirectURIs": uris}}, desired: true,
			want: []any{
				map[string]any{"url": "https://a/cb", "matchingMode": "strict"},
				map[string]any{"url": "https://b/cb", "matchingMode": "strict"},
				map[string]any{"url": "https://c/cb", "matchingMode": "strict"},
				map[string]any{"url": "https://d/cb", "matchingMode": "strict"},
				map[string]any{"url": "https://e/cb", "matchingMode": "strict"},
				map[string]any{"url": "https://f/cb", "matchingMode": "strict"},
			},
		},
		"UnsetListLeavesTheResource": {spec: map[string]any{}, desired: true, want: []any{}},
		"ResourceNotDesired":         {spec: map[string]any{"sso": map[string]any{"redirectURIs": uris}}, desired: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			xr := map[string]any{"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": "x"}, "spec": tc.spec}
			req := &fnv1.RunFunctionRequest{
				Input:    obj(t, input),
				Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, xr)}},
				Desired:  &fnv1.State{Resources: map[string]*fnv1.Resource{}},
			}
			if tc.desired {
				req.Desired.Resources["oauth2provider"] = &fnv1.Resource{Resource: obj(t, map[string]any{
					"apiVersion": "a/v1", "kind": "OAuth2Provider", "spec": map[string]any{"forProvider": map[string]any{"redirectUris": []any{}}},
				})}
			}
			rsp := run(t, req)
			r, ok := rsp.GetDesired().GetResources()["oauth2provider"]
			if ok != tc.desired {
				t.Fatalf("oauth2provider desired: want %v, got %v", tc.desired, ok)
			}
			if !ok {
				return
			}
			got := r.GetResource().AsMap()["spec"].(map[string]any)["forProvider"].(map[string]any)["redirectUris"]
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("redirectUris (-want +got):\n%s", diff)
			}
		})
	}
}

func TestObjectListRejectsNonStrings(t *testing.T) {
	req := &fnv1.RunFunctionRequest{
		Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
			"objectLists": []any{map[string]any{"resource": "r", "fromFieldPath": "spec.list", "toFieldPath": "spec.out", "key": "url"}}}),
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, map[string]any{
			"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"list": "not-a-list"}})}},
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{"r": {Resource: obj(t, map[string]any{"apiVersion": "a/v1", "kind": "R"})}}},
	}
	rsp, err := (&Function{}).RunFunction(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.GetResults()) != 1 || rsp.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
		t.Fatalf("want one fatal result, got %v", rsp.GetResults())
	}
}
