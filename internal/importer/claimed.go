package importer

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpmeta "github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

const errListClaimed = "cannot list the RoleAssignments in the cluster, which are the only record of the assignments this installation manages"

// claimed lists the external names that resources in the cluster manage for the markerless
// kinds, with the resource (namespace/name, "/name" for a cluster-scoped one): Keystone keeps
// no marker on an assignment, so only its resource says that it is managed. A resource manages
// its object once it carries the marker annotation (it created or adopted it); one that only
// observes, such as an earlier import's, claims nothing, so that adopt mode can rewrite it. A
// kind whose CRD is not installed holds none.
func claimed(ctx context.Context, kube client.Reader) (map[string]map[string]string, error) {
	out := map[string]map[string]string{kindRoleAssignment: {}}
	if kube == nil {
		return out, nil
	}
	ns := &v1alpha1.RoleAssignmentList{}
	if err := kube.List(ctx, ns); err != nil && !meta.IsNoMatchError(err) {
		return nil, wrap(err, errListClaimed)
	}
	for i := range ns.Items {
		if en := xpmeta.GetExternalName(&ns.Items[i]); en != "" && manages(&ns.Items[i]) {
			out[kindRoleAssignment][en] = ns.Items[i].GetNamespace() + "/" + ns.Items[i].GetName()
		}
	}
	cl := &clusterv1alpha1.RoleAssignmentList{}
	if err := kube.List(ctx, cl); err != nil && !meta.IsNoMatchError(err) {
		return nil, wrap(err, errListClaimed)
	}
	for i := range cl.Items {
		if en := xpmeta.GetExternalName(&cl.Items[i]); en != "" && manages(&cl.Items[i]) {
			out[kindRoleAssignment][en] = "/" + cl.Items[i].GetName()
		}
	}
	return out, nil
}

// manages reports whether a resource created or adopted its object: it carries the marker.
func manages(o metav1.Object) bool {
	_, ok := o.GetAnnotations()[adoption.AnnotationMarker]
	return ok
}
