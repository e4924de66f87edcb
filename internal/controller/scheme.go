package controller

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/crossplane-contrib/provider-identity/apis"
)

// AddToScheme registers every kind the provider's manager reads or writes: Kubernetes' own,
// CustomResourceDefinitions (the safe-start gate watches them, and CacheOptions says how they
// are cached, so a manager built with CacheOptions needs them) and the provider's API groups.
func AddToScheme(s *runtime.Scheme) error {
	b := runtime.SchemeBuilder{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, apis.AddToScheme}
	return b.AddToScheme(s)
}
