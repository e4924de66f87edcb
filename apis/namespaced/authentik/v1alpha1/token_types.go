package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// TokenParameters are the configurable fields of an authentik API token or app password.
// Every optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="has(self.username) || has(self.userId) || has(self.userRef) || has(self.userSelector)",message="a token needs its user: set username, userId, userRef or userSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.username) || !(has(self.userId) || has(self.userRef) || has(self.userSelector))",message="name the token's user once: set either username or one of userId, userRef and userSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.expires) || self.intent == 'app_password'",message="expires applies to app passwords only: authentik sets an API token's expiry itself; remove expires or set intent app_password"
type TokenParameters struct {
	// Identifier of the token, unique in authentik and the name the API addresses it by. It
	// is the resource's external name and cannot be changed.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="identifier cannot be changed: it identifies the token in authentik; create a new Token instead"
	Identifier string `json:"identifier"`

	// Intent is api (a token for authentik's API) or app_password (a password the user
	// logs in to LDAP and similar services with). authentik's other intents (verification,
	// recovery) are one-time links it makes itself. It cannot be changed.
	// +optional
	// +kubebuilder:default=api
	// +kubebuilder:validation:Enum=api;app_password
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="intent cannot be changed: create a new Token with the other intent instead"
	Intent *string `json:"intent,omitempty"`

	// Username of the token's user. Set it, or the user's pk through UserID, UserRef or
	// UserSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=150
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	Username *string `json:"username,omitempty"`

	// UserID is the pk (a number) of the token's user. Usually filled in from UserRef or
	// UserSelector.
	// +optional
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=User
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose pk fills UserID: a User in this token's namespace
	// (for a cluster-scoped token, a cluster-scoped User).
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose pk fills UserID, among the Users of this token's
	// namespace (a cluster-scoped token: among the cluster-scoped ones).
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`

	// Description of the token. authentik shows it in the token list; the provider keeps its
	// provenance marker on a last line of its own below it, which this field does not include.
	// +optional
	// +kubebuilder:validation:MaxLength=1000
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b-\x1f\x7f]*$`
	Description *string `json:"description,omitempty"`

	// Expiring tokens stop working at their expiry and are deleted by authentik (the resource
	// then creates a new one, with a new key). authentik's default is true, and an API token
	// expires after authentik's default token duration; set false for a lasting token.
	// +optional
	Expiring *bool `json:"expiring,omitempty"`

	// Expires is when an app password expires (authentik refuses an expiry beyond its maximum
	// token lifetime). API tokens get authentik's default duration and cannot set it.
	// +optional
	Expires *metav1.Time `json:"expires,omitempty"`

	// KeySecretRef selects a Secret key holding the token's key, set in authentik with
	// set_key right after the token is created and whenever the Secret changes. Without it
	// authentik generates the key. Either way the key is published only to the connection
	// Secret (writeConnectionSecretToRef), which this field needs. A cluster-scoped Token names
	// the Secret's namespace; a namespaced Token reads the Secret in its own namespace.
	// +optional
	KeySecretRef *identityv1alpha1.SecretKeySelector `json:"keySecretRef,omitempty"`
}

// TokenObservation is the observed state of an authentik token. It never holds the key.
type TokenObservation struct {
	// ID is authentik's UUID of the token; the external name is its identifier.
	ID string `json:"id,omitempty"`

	Identifier string `json:"identifier,omitempty"`
	Intent     string `json:"intent,omitempty"`

	// UserID is the pk of the token's user, Username its username.
	UserID   string `json:"userId,omitempty"`
	Username string `json:"username,omitempty"`

	Expiring bool   `json:"expiring,omitempty"`
	Expires  string `json:"expires,omitempty"`

	// Provenance tells whether the token was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
