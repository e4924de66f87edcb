package managedkind

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// A Scoped kind is one scope of a kind: its GroupVersionKind and an empty object. A kind
// exists in both scopes (docs/adr/0005-crossplane-v2-scopes.md) with one driver written
// against MR, an interface both scopes' types satisfy.
type Scoped[MR resource.Managed] struct {
	GVK schema.GroupVersionKind
	Obj MR
}

// SetupScopes adds one controller per scope of a kind, each set up by setup.
func SetupScopes[MR resource.Managed](mgr ctrl.Manager, o Options, scopes []Scoped[MR], setup func(ctrl.Manager, Options, schema.GroupVersionKind, MR) error) error {
	for _, s := range scopes {
		if err := setup(mgr, o, s.GVK, s.Obj); err != nil {
			return err
		}
	}
	return nil
}

// SetupScopesGated adds each scope's controller once that scope's CRD is installed.
func SetupScopesGated[MR resource.Managed](mgr ctrl.Manager, o Options, scopes []Scoped[MR], setup func(ctrl.Manager, Options, schema.GroupVersionKind, MR) error) error {
	for _, s := range scopes {
		if err := SetupGated(mgr, o, s.GVK, func(mgr ctrl.Manager, o Options) error { return setup(mgr, o, s.GVK, s.Obj) }); err != nil {
			return err
		}
	}
	return nil
}
