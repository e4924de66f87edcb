// Package v1beta1 is the input of function-identity-platform: what a Composition's pipeline step
// asks the function to do.
package v1beta1

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion of the input.
var GroupVersion = schema.GroupVersion{Group: "platform.fn.identity.crossplane.io", Version: "v1beta1"}

// Input of one pipeline step. Each block is optional; the function applies them in this order:
// Include, KeystoneIdentityBackend, ObjectLists, DeletionPolicy, Conditions, Tenant.
type Input struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Include drops desired composed resources whose XR field is not set (for example the SSO
	// objects of a ServiceClaim without spec.sso). A dropped resource that exists is deleted.
	Include []Inclusion `json:"include,omitempty"`

	// KeystoneIdentityBackend composes the type-specific objects of a KeystoneIdentityBackend
	// (DomainConfig, or IdentityProvider, Mapping, Protocol, groups and role assignments) and
	// reports DomainReady, ConfigProjected, FederationObjectsReady, MappingsReady and BackendReady.
	KeystoneIdentityBackend *KeystoneIdentityBackend `json:"keystoneIdentityBackend,omitempty"`

	// DeletionPolicy maps the XR's deletionPolicy onto the management policies of the
	// provider's namespaced managed resources composed so far.
	DeletionPolicy *DeletionPolicy `json:"deletionPolicy,omitempty"`

	// Conditions reports one condition per rule from the readiness of composed resources.
	Conditions []ConditionRule `json:"conditions,omitempty"`

	// Tenant gates everything composed so far on a Tenant being Ready.
	Tenant *TenantGate `json:"tenant,omitempty"`

	// ObjectLists turn a list of strings of the XR into a list of objects of a composed
	// resource, of any length (patch-and-transform can only copy one index at a time).
	ObjectLists []ObjectList `json:"objectLists,omitempty"`
}

// ObjectList sets ToFieldPath of Resource to one object per string at FromFieldPath of the XR:
// {Key: s} plus Fields. A resource that is not desired (e.g. dropped by Include) is skipped; an
// unset or empty list leaves the resource as the earlier steps composed it.
type ObjectList struct {
	// Resource is the composition resource name (pipeline key).
	Resource string `json:"resource"`
	// FromFieldPath of the XR, e.g. spec.sso.redirectURIs.
	FromFieldPath string `json:"fromFieldPath"`
	// ToFieldPath of the composed resource, e.g. spec.forProvider.redirectUris.
	ToFieldPath string `json:"toFieldPath"`
	// Key is the field of each object that holds the string, e.g. url.
	Key string `json:"key"`
	// Fields are added to every object as they are, e.g. {matchingMode: strict}.
	Fields map[string]string `json:"fields,omitempty"`
}

// DeletionPolicy reads Retain or Delete from FieldPath of the XR and sets
// spec.managementPolicies of every desired composed resource of a *.identity.m.crossplane.io
// kind that has none: Delete -> ["*"]; Retain -> ["Observe","Create","Update","LateInitialize"]
// (everything but Delete, so the external object outlives the resource).
type DeletionPolicy struct {
	// FieldPath of the XR. Default spec.deletionPolicy.
	FieldPath string `json:"fieldPath,omitempty"`
}

// Inclusion keeps Resources only while FieldPath of the observed XR is set.
type Inclusion struct {
	// FieldPath of the XR, e.g. spec.sso.
	FieldPath string `json:"fieldPath"`
	// Resources are composition resource names (pipeline keys).
	Resources []string `json:"resources"`
}

// KeystoneIdentityBackend configures the KeystoneIdentityBackend handler.
type KeystoneIdentityBackend struct {
	// DomainResource is the composition resource name of the Domain (composed by an earlier
	// step). Default "domain".
	DomainResource string `json:"domainResource,omitempty"`
}

// ConditionRule sets condition Type to True with TrueReason when every resource in Resources is
// observed and ready, and to False with FalseReason (message: the ones that are not) otherwise.
type ConditionRule struct {
	Type        string   `json:"type"`
	Resources   []string `json:"resources"`
	TrueReason  string   `json:"trueReason,omitempty"`
	FalseReason string   `json:"falseReason,omitempty"`
}

// TenantGate requires the Tenant named by the XR field NameFieldPath. While that Tenant is
// missing or not Ready the XR reports TenantReady=False and is not Ready, and no composed
// resource that does not exist yet is created (existing ones are kept, never deleted).
type TenantGate struct {
	// NameFieldPath of the XR holding the Tenant's name. Default spec.tenantRef.name.
	NameFieldPath string `json:"nameFieldPath,omitempty"`
	// APIVersion of the Tenant. Default platform.identity.crossplane.io/v1alpha1.
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind of the Tenant. Default Tenant.
	Kind string `json:"kind,omitempty"`
	// NamespaceFormat, when set, is where the XR must live: fmt.Sprintf(NamespaceFormat, the
	// Tenant's name), e.g. team-%s. An XR elsewhere reports TenantReady=False/WrongNamespace and
	// composes nothing.
	NamespaceFormat string `json:"namespaceFormat,omitempty"`
	// StatusFieldPaths copies fields of the Tenant into the XR's status once it is Ready
	// (key: XR status field path, value: Tenant field path).
	StatusFieldPaths map[string]string `json:"statusFieldPaths,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Input) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	out := &Input{}
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}
