package importer

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpmeta "github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	akclusterv1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

const errListClaimed = "cannot list the %ss in the cluster, which are the only record of the objects of that kind this installation manages"

// markerlessLists are, per kind that keeps no marker in the external system, the lists of its
// resources of either scope.
var markerlessLists = map[string][]func() client.ObjectList{
	kindRoleAssignment:  {func() client.ObjectList { return &v1alpha1.RoleAssignmentList{} }, func() client.ObjectList { return &clusterv1alpha1.RoleAssignmentList{} }},
	kindDomainConfig:    {func() client.ObjectList { return &v1alpha1.DomainConfigList{} }, func() client.ObjectList { return &clusterv1alpha1.DomainConfigList{} }},
	kindMapping:         {func() client.ObjectList { return &v1alpha1.MappingList{} }, func() client.ObjectList { return &clusterv1alpha1.MappingList{} }},
	kindProtocol:        {func() client.ObjectList { return &v1alpha1.ProtocolList{} }, func() client.ObjectList { return &clusterv1alpha1.ProtocolList{} }},
	kindGroupMembership: {func() client.ObjectList { return &v1alpha1.GroupMembershipList{} }, func() client.ObjectList { return &clusterv1alpha1.GroupMembershipList{} }},
	kindImpliedRole:     {func() client.ObjectList { return &v1alpha1.ImpliedRoleList{} }, func() client.ObjectList { return &clusterv1alpha1.ImpliedRoleList{} }},
	// authentik providers, flows, stages and flow-stage bindings keep no marker either (ADR 0002).
	kindOAuth2Provider:   {func() client.ObjectList { return &akv1.OAuth2ProviderList{} }, func() client.ObjectList { return &akclusterv1.OAuth2ProviderList{} }},
	kindSAMLProvider:     {func() client.ObjectList { return &akv1.SAMLProviderList{} }, func() client.ObjectList { return &akclusterv1.SAMLProviderList{} }},
	kindProxyProvider:    {func() client.ObjectList { return &akv1.ProxyProviderList{} }, func() client.ObjectList { return &akclusterv1.ProxyProviderList{} }},
	kindFlow:             {func() client.ObjectList { return &akv1.FlowList{} }, func() client.ObjectList { return &akclusterv1.FlowList{} }},
	kindStage:            {func() client.ObjectList { return &akv1.StageList{} }, func() client.ObjectList { return &akclusterv1.StageList{} }},
	kindFlowStageBinding: {func() client.ObjectList { return &akv1.FlowStageBindingList{} }, func() client.ObjectList { return &akclusterv1.FlowStageBindingList{} }},
	// Nor on policies, policy bindings, property mappings and certificate-key pairs.
	kindPolicy:             {func() client.ObjectList { return &akv1.PolicyList{} }, func() client.ObjectList { return &akclusterv1.PolicyList{} }},
	kindPolicyBinding:      {func() client.ObjectList { return &akv1.PolicyBindingList{} }, func() client.ObjectList { return &akclusterv1.PolicyBindingList{} }},
	kindPropertyMapping:    {func() client.ObjectList { return &akv1.PropertyMappingList{} }, func() client.ObjectList { return &akclusterv1.PropertyMappingList{} }},
	kindCertificateKeyPair: {func() client.ObjectList { return &akv1.CertificateKeyPairList{} }, func() client.ObjectList { return &akclusterv1.CertificateKeyPairList{} }},
	// An application credential keeps its marker in its description, except one that was
	// adopted (Keystone cannot change it): that one's marker is on its resource.
	kindApplicationCredential: {func() client.ObjectList { return &v1alpha1.ApplicationCredentialList{} }, func() client.ObjectList { return &clusterv1alpha1.ApplicationCredentialList{} }},
}

// claimed lists the external names that resources in the cluster manage for the markerless
// kinds, with the resource (namespace/name, "/name" for a cluster-scoped one): Keystone keeps
// no marker on an assignment, a membership, an implied-role rule, a mapping, a protocol or a
// domain configuration (nor authentik on a provider, a flow, a stage or a binding), so only its
// resource says that it is managed. A resource manages its object once it carries the marker
// annotation (it created or adopted it); one that only observes, such as an earlier import's,
// claims nothing, so that adopt mode can rewrite it. A kind whose CRD is not installed holds
// none.
func claimed(ctx context.Context, kube client.Reader) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for kind, lists := range markerlessLists {
		out[kind] = map[string]string{}
		if kube == nil {
			continue
		}
		for _, newList := range lists {
			l := newList()
			if err := kube.List(ctx, l); err != nil {
				if meta.IsNoMatchError(err) {
					continue
				}
				return nil, wrapf(err, errListClaimed, kind)
			}
			items, err := meta.ExtractList(l)
			if err != nil {
				return nil, wrapf(err, errListClaimed, kind)
			}
			for _, it := range items {
				o, ok := it.(metav1.Object)
				if !ok {
					continue
				}
				if en := xpmeta.GetExternalName(o); en != "" && manages(o) {
					out[kind][en] = o.GetNamespace() + "/" + o.GetName()
				}
			}
		}
	}
	return out, nil
}

// manages reports whether a resource created or adopted its object: it carries the marker.
func manages(o metav1.Object) bool {
	_, ok := o.GetAnnotations()[adoption.AnnotationMarker]
	return ok
}
