package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// DomainConfigParameters are the configurable fields of a Keystone domain configuration.
//
// A DomainConfig references its Domain (and not the other way round): the configuration is
// an optional, separately owned part of a domain, it can be attached to a domain this provider
// does not manage, and its deletion (back to the SQL identity driver) must come before the
// domain's. While a DomainConfig references a Domain resource, that Domain carries a
// finalizer naming it and is not deleted in Keystone before the configuration is.
// +kubebuilder:validation:XValidation:rule="has(self.domainId) || has(self.domainRef) || has(self.domainSelector)",message="set domainRef (or domainSelector) to the Domain this configuration belongs to, or domainId to its Keystone ID"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.domainId) || (has(self.domainId) && self.domainId == oldSelf.domainId)",message="domainId cannot change: a configuration belongs to one domain; create another DomainConfig for the other domain"
type DomainConfigParameters struct {
	// DomainID is the Keystone ID of the domain to configure. One configuration per domain.
	// +optional
	// +identity:reference:type=Domain
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain resource whose ID fills domainId: a Domain in this
	// DomainConfig's namespace (for a cluster-scoped DomainConfig, a cluster-scoped Domain). A
	// reference never leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain resource whose ID fills domainId, among the Domains of
	// this DomainConfig's namespace (a cluster-scoped DomainConfig: among the cluster-scoped
	// Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// LDAP makes the domain's users and groups come from an LDAP directory (Keystone's
	// [identity] driver = ldap and its [ldap] options). The provider owns the domain's whole
	// configuration: options set in Keystone by other means are removed.
	LDAP LDAPConfig `json:"ldap"`
}

// LDAPConfig is the [ldap] section of a domain's configuration. Only the fields set are sent,
// so Keystone's defaults apply to the rest, except that, unless extraOptions sets a
// user_enabled_* option, user_enabled_invert=true and user_enabled_default=false are sent so
// that users of directories without an "enabled" attribute (plain inetOrgPerson) read as
// enabled.
// +kubebuilder:validation:XValidation:rule="!has(self.extraOptions) || self.extraOptions.all(k, !(k in ['url', 'user', 'password', 'suffix', 'user_tree_dn', 'user_filter', 'user_objectclass', 'user_id_attribute', 'user_name_attribute', 'user_mail_attribute', 'group_tree_dn', 'group_filter', 'group_objectclass', 'group_id_attribute', 'group_name_attribute', 'group_member_attribute', 'tls_cacertfile', 'tls_cacertdir', 'use_tls', 'tls_req_cert', 'use_pool', 'pool_size', 'pool_retry_max', 'pool_connection_timeout', 'pool_connection_lifetime', 'driver', 'domain_config_dir', 'user_allow_create', 'user_allow_update', 'user_allow_delete', 'group_allow_create', 'group_allow_update', 'group_allow_delete']))",message="extraOptions must not set options owned by typed fields (url, user, password, suffix, users.*, groups.*, tls.*, pool.*), the driver wiring (driver, domain_config_dir) or the read-only switches (user_allow_*, group_allow_*): use the typed field instead"
type LDAPConfig struct {
	// URL of the LDAP server, ldap:// or ldaps://; several may be given separated by commas.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^ldaps?://`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="url must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	URL string `json:"url"`

	// BindCredentialsSecretRef names the Secret holding the bind DN under the key "username"
	// and its password under the key "password" (both required, fixed keys). Keystone never
	// returns the password: the provider sends it again whenever the Secret changes.
	// A cluster-scoped DomainConfig names the Secret's namespace; a namespaced DomainConfig
	// reads the Secret in its own namespace and names none.
	BindCredentialsSecretRef identityv1alpha1.SecretReference `json:"bindCredentialsSecretRef"`

	// Suffix is the directory's base DN, for example dc=example,dc=com.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="suffix must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	Suffix string `json:"suffix"`

	// Users is the layout of the user tree.
	Users LDAPUsers `json:"users"`

	// Groups is the layout of the group tree; without it no group_* options are sent.
	// +optional
	Groups *LDAPGroups `json:"groups,omitempty"`

	// ReadOnly keeps Keystone from writing into the directory. It must be true (the default):
	// Keystone's LDAP identity driver is read-only (user and group writes answer 403), and its
	// domain-configuration API refuses the user_allow_* and group_allow_* options (403), so
	// there is nothing to switch on.
	// +optional
	// +kubebuilder:default=true
	// +kubebuilder:validation:XValidation:rule="self == true",message="readOnly: false is not supported: Keystone's LDAP identity driver never writes to the directory and its domain-configuration API rejects user_allow_*/group_allow_* options"
	ReadOnly *bool `json:"readOnly,omitempty"`

	// TLS configures certificate checks for ldaps:// and StartTLS.
	// +optional
	TLS *LDAPTLS `json:"tls,omitempty"`

	// Pool configures Keystone's LDAP connection pool.
	// +optional
	Pool *LDAPPool `json:"pool,omitempty"`

	// ExtraOptions are further [ldap] options by their bare Keystone name, for example
	// page_size or user_enabled_attribute. Keystone accepts only the options of its
	// domain-configuration allow-list (others fail with 403). Options owned by typed fields are
	// refused. Setting any user_enabled_* option suppresses the enabled defaults.
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.matches('^[a-z][a-z0-9_]*$'))",message="extraOptions keys are bare Keystone [ldap] option names: lowercase letters, digits and underscores, for example page_size"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !self[k].matches('[\\r\\n]'))",message="extraOptions values must be single lines: a newline or carriage return would inject options into Keystone's [ldap] section"
	ExtraOptions map[string]LDAPOptionValue `json:"extraOptions,omitempty"`
}

// An LDAPOptionValue is the value of one [ldap] option, as Keystone's configuration file would
// hold it.
// +kubebuilder:validation:MaxLength=1024
type LDAPOptionValue string

// LDAPUsers is the layout of the user tree.
type LDAPUsers struct {
	// TreeDN is the subtree holding the users (user_tree_dn).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.treeDN must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	TreeDN string `json:"treeDN"`

	// Filter is an LDAP search filter for users (user_filter).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.filter must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	Filter *string `json:"filter,omitempty"`

	// ObjectClass of users (user_objectclass; Keystone's default inetOrgPerson).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.objectClass must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	ObjectClass *string `json:"objectClass,omitempty"`

	// IDAttribute maps to the user ID (user_id_attribute; Keystone's default cn).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.idAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	IDAttribute *string `json:"idAttribute,omitempty"`

	// NameAttribute maps to the user name (user_name_attribute; Keystone's default sn).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.nameAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	NameAttribute *string `json:"nameAttribute,omitempty"`

	// MailAttribute maps to the user's email (user_mail_attribute; Keystone's default mail).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="users.mailAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	MailAttribute *string `json:"mailAttribute,omitempty"`
}

// LDAPGroups is the layout of the group tree.
type LDAPGroups struct {
	// TreeDN is the subtree holding the groups (group_tree_dn).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.treeDN must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	TreeDN string `json:"treeDN"`

	// Filter is an LDAP search filter for groups (group_filter).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.filter must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	Filter *string `json:"filter,omitempty"`

	// ObjectClass of groups (group_objectclass; Keystone's default groupOfNames).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.objectClass must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	ObjectClass *string `json:"objectClass,omitempty"`

	// IDAttribute maps to the group ID (group_id_attribute; Keystone's default cn).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.idAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	IDAttribute *string `json:"idAttribute,omitempty"`

	// NameAttribute maps to the group name (group_name_attribute; Keystone's default ou).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.nameAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	NameAttribute *string `json:"nameAttribute,omitempty"`

	// MemberAttribute lists a group's members (group_member_attribute; Keystone's default
	// member).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="groups.memberAttribute must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	MemberAttribute *string `json:"memberAttribute,omitempty"`
}

// LDAPTLS configures certificate checks for LDAP connections.
//
// Keystone reads CA certificates only from files on its own hosts (tls_cacertfile,
// tls_cacertdir): its API cannot receive a certificate. Place the CA file with Keystone's
// deployment and name its path here.
type LDAPTLS struct {
	// StartTLS upgrades ldap:// connections with StartTLS (use_tls). Not for ldaps:// URLs.
	// +optional
	StartTLS *bool `json:"startTLS,omitempty"`

	// RequireCert is the server certificate check (tls_req_cert): demand (Keystone's default),
	// allow or never.
	// +optional
	// +kubebuilder:validation:Enum=demand;allow;never
	RequireCert *string `json:"requireCert,omitempty"`

	// CACertFile is the path, on Keystone's hosts, of the CA bundle that signs the LDAP
	// server's certificate (tls_cacertfile).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="tls.caCertFile must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	CACertFile *string `json:"caCertFile,omitempty"`

	// CACertDir is the path, on Keystone's hosts, of a directory of CA certificates
	// (tls_cacertdir).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\r\\n]')",message="tls.caCertDir must be a single line: a newline or carriage return would inject options into Keystone's [ldap] section"
	CACertDir *string `json:"caCertDir,omitempty"`
}

// LDAPPool configures Keystone's LDAP connection pool.
type LDAPPool struct {
	// Enabled turns the pool on (use_pool).
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Size is the pool's connection count (pool_size).
	// +optional
	// +kubebuilder:validation:Minimum=1
	Size *int32 `json:"size,omitempty"`

	// RetryMax is how often a failed connection is retried (pool_retry_max).
	// +optional
	// +kubebuilder:validation:Minimum=0
	RetryMax *int32 `json:"retryMax,omitempty"`

	// ConnectionTimeoutSeconds bounds a connection attempt (pool_connection_timeout; -1 waits
	// forever).
	// +optional
	// +kubebuilder:validation:Minimum=-1
	ConnectionTimeoutSeconds *int32 `json:"connectionTimeoutSeconds,omitempty"`

	// ConnectionLifetimeSeconds bounds how long a pooled connection is reused
	// (pool_connection_lifetime).
	// +optional
	// +kubebuilder:validation:Minimum=1
	ConnectionLifetimeSeconds *int32 `json:"connectionLifetimeSeconds,omitempty"`
}

// DomainConfigObservation is the observed state of a Keystone domain configuration.
type DomainConfigObservation struct {
	// ID is the Keystone ID of the configured domain (also the external name).
	ID string `json:"id,omitempty"`

	// Options are the configuration's options as Keystone returns them, by group ("identity",
	// "ldap"). Keystone never returns the bind password.
	Options map[string]map[string]string `json:"options,omitempty"`

	// BindCredentialsVersion identifies the version of the bind Secret last sent to Keystone
	// (the Secret's UID and resourceVersion, never derived from its content). A different
	// version makes the provider send the credentials again.
	BindCredentialsVersion string `json:"bindCredentialsVersion,omitempty"`

	// Provenance tells whether the configuration was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
