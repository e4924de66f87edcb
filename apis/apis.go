// Package apis contains the Kubernetes API types of provider-identity.
package apis

import (
	"k8s.io/apimachinery/pkg/runtime"

	authentikv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	keystonev1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsauthentikv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nskeystonev1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// AddToSchemes registers every API group of the provider.
var AddToSchemes = runtime.SchemeBuilder{
	identityv1alpha1.SchemeBuilder.AddToScheme,
	keystonev1alpha1.SchemeBuilder.AddToScheme,
	authentikv1alpha1.SchemeBuilder.AddToScheme,
	nsidentityv1alpha1.SchemeBuilder.AddToScheme,
	nskeystonev1alpha1.SchemeBuilder.AddToScheme,
	nsauthentikv1alpha1.SchemeBuilder.AddToScheme,
}

// AddToScheme adds all the provider's types to a scheme.
func AddToScheme(s *runtime.Scheme) error {
	return AddToSchemes.AddToScheme(s)
}
