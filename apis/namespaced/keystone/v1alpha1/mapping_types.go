package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// MappingParameters are the configurable fields of a Keystone federation mapping.
type MappingParameters struct {
	// ID of the mapping in Keystone, chosen by you; protocols name it. It becomes the external
	// name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="id cannot change: it is the mapping's identity in Keystone; create another Mapping instead"
	ID string `json:"id"`

	// Rules map a federated user's assertion (remote) to local users, groups, projects and
	// domains. The first matching rules apply; see Keystone's federation mapping
	// documentation.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	Rules []MappingRule `json:"rules"`
}

// A MappingRule is one rule of a mapping, typed one-to-one with Keystone's rule JSON: the
// camelCase fields here are snake_case on the wire (anyOneOf is any_one_of, groupIds is
// group_ids).
// +kubebuilder:validation:XValidation:rule="size(self.local) >= 1",message="a mapping rule needs at least one local entry: what the matched user maps to"
// +kubebuilder:validation:XValidation:rule="size(self.remote) >= 1",message="a mapping rule needs at least one remote entry: which assertion attribute it matches"
type MappingRule struct {
	// Local is what a matching user maps to. "{0}", "{1}"... are replaced by the values of
	// the remote entries without a condition, in order.
	// +kubebuilder:validation:MaxItems=16
	Local []MappingLocal `json:"local"`

	// Remote are the assertion attributes the rule matches on.
	// +kubebuilder:validation:MaxItems=16
	Remote []MappingRemote `json:"remote"`
}

// A MappingLocal is one local entry of a rule.
// +kubebuilder:validation:XValidation:rule="has(self.user) || has(self.group) || has(self.groups) || has(self.groupIds) || has(self.projects) || has(self.domain)",message="a local entry must set at least one of user, group, groups, groupIds, projects or domain"
type MappingLocal struct {
	// User the federated user becomes.
	// +optional
	User *MappingUser `json:"user,omitempty"`

	// Group the user becomes a member of.
	// +optional
	Group *MappingGroup `json:"group,omitempty"`

	// Groups is a list of group names, usually a remote substitution such as "{1}" (groups).
	// Group names are looked up in the entry's domain.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Groups *string `json:"groups,omitempty"`

	// GroupIDs is a list of group IDs, usually a remote substitution such as "{1}"
	// (group_ids).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	GroupIDs *string `json:"groupIds,omitempty"`

	// Projects are created for the user (auto-provisioning) with the given roles.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	Projects []MappingProject `json:"projects,omitempty"`

	// Domain in which groups are looked up and projects are created.
	// +optional
	Domain *MappingDomain `json:"domain,omitempty"`
}

// MappingUser is the local user of a rule.
type MappingUser struct {
	// ID of the user, usually a remote substitution.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ID *string `json:"id,omitempty"`
	// Name of the user, usually a remote substitution such as "{0}".
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name *string `json:"name,omitempty"`
	// Email of the user.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Email *string `json:"email,omitempty"`
	// Type is ephemeral (Keystone's default: a shadow user) or local (an existing user).
	// +optional
	// +kubebuilder:validation:Enum=ephemeral;local
	Type *string `json:"type,omitempty"`
	// Domain of the user.
	// +optional
	Domain *MappingDomain `json:"domain,omitempty"`
}

// MappingGroup is a local group, by ID or by name and domain.
// +kubebuilder:validation:XValidation:rule="has(self.id) ? !has(self.name) && !has(self.domain) : has(self.name) && has(self.domain)",message="a group is named either by id alone, or by name together with domain"
type MappingGroup struct {
	// ID of the group.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ID *string `json:"id,omitempty"`
	// Name of the group, together with domain.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name *string `json:"name,omitempty"`
	// Domain of the named group.
	// +optional
	Domain *MappingDomain `json:"domain,omitempty"`
}

// MappingDomain is a domain by ID or by name.
// +kubebuilder:validation:XValidation:rule="has(self.id) != has(self.name)",message="a domain is named by exactly one of id or name"
type MappingDomain struct {
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ID *string `json:"id,omitempty"`
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name *string `json:"name,omitempty"`
}

// MappingProject is a project created for the user, with roles.
type MappingProject struct {
	// Name of the project, usually a remote substitution.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name string `json:"name"`
	// Roles the user gets on the project.
	// +kubebuilder:validation:MaxItems=16
	Roles []MappingRole `json:"roles"`
}

// MappingRole is a role by name.
type MappingRole struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name string `json:"name"`
}

// A MappingRemote matches one assertion attribute. With no condition its values feed the
// local substitutions; anyOneOf, notAnyOf, whitelist and blacklist are mutually exclusive.
// +kubebuilder:validation:XValidation:rule="[has(self.anyOneOf), has(self.notAnyOf), has(self.blacklist), has(self.whitelist)].filter(x, x).size() <= 1",message="a remote entry takes at most one of anyOneOf, notAnyOf, blacklist and whitelist"
// +kubebuilder:validation:XValidation:rule="!has(self.regex) || has(self.anyOneOf) || has(self.notAnyOf) || has(self.blacklist) || has(self.whitelist)",message="regex applies to the values of anyOneOf, notAnyOf, blacklist or whitelist: set one of them, or drop regex"
type MappingRemote struct {
	// Type is the assertion attribute (the WSGI environment key), for example
	// HTTP_OIDC_ISS, REMOTE_USER or MELLON_groups.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Type string `json:"type"`

	// Regex makes the values of the condition regular expressions.
	// +optional
	Regex *bool `json:"regex,omitempty"`

	// AnyOneOf matches when the attribute has one of these values (any_one_of).
	// +optional
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=1024
	AnyOneOf []string `json:"anyOneOf,omitempty"`

	// NotAnyOf matches when the attribute has none of these values (not_any_of).
	// +optional
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=1024
	NotAnyOf []string `json:"notAnyOf,omitempty"`

	// Blacklist removes these values before substitution.
	// +optional
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=1024
	Blacklist []string `json:"blacklist,omitempty"`

	// Whitelist keeps only these values for substitution.
	// +optional
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=1024
	Whitelist []string `json:"whitelist,omitempty"`
}

// MappingObservation is the observed state of a Keystone mapping.
type MappingObservation struct {
	// ID of the mapping (also the external name).
	ID string `json:"id,omitempty"`

	// RuleCount is the number of rules Keystone holds for the mapping.
	RuleCount int `json:"ruleCount,omitempty"`

	// Provenance tells whether the mapping was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
