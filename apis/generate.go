//go:build generate

// Code generation for the provider's APIs. Run `make generate` (or `go generate -tags generate
// ./apis/...`) after changing any *_types.go file; `make check-generated` fails when the
// committed output is stale.

// Remove generated files first so that deleted types leave nothing behind.
//go:generate rm -rf ../package/crds
//go:generate sh -c "find . -name 'zz_generated*.go' -delete"

// The cluster-scoped kinds from the namespaced ones they mirror (docs/adr/0005-crossplane-v2-scopes.md).
//go:generate go run ../hack/gen-cluster-scope -from namespaced/keystone/v1alpha1 -to keystone/v1alpha1 -import github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1 -header ../hack/boilerplate.go.txt
//go:generate go run ../hack/gen-cluster-scope -from namespaced/authentik/v1alpha1 -to authentik/v1alpha1 -import github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1 -header ../hack/boilerplate.go.txt

// Deepcopy methods and CRDs.
//go:generate go tool controller-gen object:headerFile=../hack/boilerplate.go.txt paths=./... crd:crdVersions=v1 output:artifacts:config=../package/crds

// Managed resource, ProviderConfig and reference resolver method sets (angryjet has its own
// modfile, see hack/tools/go.mod).
//go:generate go run -modfile=../hack/tools/go.mod github.com/crossplane/crossplane-tools/cmd/angryjet generate-methodsets --header-file=../hack/boilerplate.go.txt ./...

// angryjet's reference resolvers import github.com/pkg/errors, which is not a requirement of the
// provider's module: point them at crossplane-runtime's errors package, which has the same Wrap.
//go:generate sh -c "find . -name zz_generated.resolvers.go -exec sed -i 's|errors \"github.com/pkg/errors\"|errors \"github.com/crossplane/crossplane-runtime/v2/pkg/errors\"|' {} +"

// The namespaced kinds' and their cluster-scoped twins' reference resolvers, from their
// +identity:reference markers (after angryjet: they use the Managed method set).
//go:generate go run ../hack/gen-cluster-scope -references -from namespaced/keystone/v1alpha1 -to keystone/v1alpha1 -import github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1 -header ../hack/boilerplate.go.txt
//go:generate go run ../hack/gen-cluster-scope -references -from namespaced/authentik/v1alpha1 -to authentik/v1alpha1 -import github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1 -header ../hack/boilerplate.go.txt

// The rewrite above leaves the imports out of order: format what was generated.
//go:generate sh -c "find . -name 'zz_generated*.go' -exec gofmt -w {} +"

package apis
