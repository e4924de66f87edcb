package importer

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

const (
	wantDomainConfig = `# Written by kubectl identity import from Keystone configuration of domain "team" (ID dt).
# the bind credentials are not imported (Keystone never returns the password): before applying, create the Secret "ldap-bind-dt" in the resource's namespace with the keys username (the bind DN, "cn=admin,dc=example,dc=com") and password
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: DomainConfig
metadata:
  annotations:
    crossplane.io/external-name: dt
  name: team
  namespace: team-x
spec:
  forProvider:
    domainRef:
      name: team
    ldap:
      bindCredentialsSecretRef:
        name: ldap-bind-dt
      suffix: dc=example,dc=com
      url: ldap://ldap.example.com
      users:
        treeDN: ou=People,dc=example,dc=com
  managementPolicies:
  - Observe
`
	wantIdentityProvider = `# Written by kubectl identity import from Keystone identity provider "corp".
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: IdentityProvider
metadata:
  annotations:
    crossplane.io/external-name: corp
  name: corp
  namespace: team-x
spec:
  forProvider:
    description: Corporate SSO
    domainRef:
      name: team
    enabled: true
    id: corp
    remoteIds:
    - https://sso.example.com
  managementPolicies:
  - Observe
`
	wantProtocol = `# Written by kubectl identity import from Keystone protocol "openid" of identity provider "corp".
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: Protocol
metadata:
  annotations:
    crossplane.io/external-name: corp/openid
  name: corp-openid
  namespace: team-x
spec:
  forProvider:
    id: openid
    identityProviderRef:
      name: corp
    mappingRef:
      name: corp-map
    remoteIdAttribute: HTTP_OIDC_ISS
  managementPolicies:
  - Observe
`
	// Neither the identity provider nor the mapping is imported: the protocol names them by ID.
	wantProtocolAlone = `# Written by kubectl identity import from Keystone protocol "openid" of identity provider "corp".
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: Protocol
metadata:
  annotations:
    crossplane.io/external-name: corp/openid
  name: corp-openid
  namespace: team-x
spec:
  forProvider:
    id: openid
    identityProviderId: corp
    mappingId: corp-map
    remoteIdAttribute: HTTP_OIDC_ISS
  managementPolicies:
  - Observe
`
)

// Identity providers of the domains in scope, their protocols and the mappings they use, and the
// domain's LDAP configuration, referencing each other; a foreign-marked identity provider is
// refused; a markerless mapping a resource of the cluster manages is skipped (and referenced by
// that resource when it is in the target namespace).
func TestFederationImport(t *testing.T) {
	fed := []string{"domain", "domainconfig", "identityprovider", "mapping", "protocol"}
	foreignIdP := Skip{Kind: "IdentityProvider", Describe: `Keystone identity provider "theirs-idp"`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource IdentityProvider.keystone.identity.m.crossplane.io/ns/x): it is that installation's to manage, and no manifest was written for it`}
	cases := map[string]struct {
		filter    Filter
		target    Target
		wantFiles []string
		wantSkips []Skip
		wantText  map[string]string
	}{
		"Domain": {
			filter:    Filter{Domain: "team", Kinds: fed},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"domain-team.yaml", "domainconfig-team.yaml", "identityprovider-corp.yaml", "mapping-corp-map.yaml", "protocol-corp-openid.yaml"},
			wantSkips: []Skip{foreignIdP},
			wantText:  map[string]string{"domainconfig-team.yaml": wantDomainConfig, "identityprovider-corp.yaml": wantIdentityProvider, "protocol-corp-openid.yaml": wantProtocol},
		},
		"AllDomains": {
			filter: Filter{Kinds: []string{"identityprovider", "mapping"}},
			target: Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"identityprovider-corp.yaml", "identityprovider-elsewhere.yaml", "mapping-corp-map.yaml",
				"mapping-unused.yaml"},
			wantSkips: []Skip{foreignIdP},
		},
		"ProtocolAlone": {
			filter:    Filter{Domain: "team", Kinds: []string{"protocol"}},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"protocol-corp-openid.yaml"},
			wantText:  map[string]string{"protocol-corp-openid.yaml": wantProtocolAlone},
		},
		"ClaimedMarkerless": {
			filter: Filter{Domain: "team", Kinds: []string{"domainconfig", "mapping", "protocol"}},
			target: Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine", Claimed: map[string]map[string]string{
				"Mapping": {"corp-map": "team-x/sso-rules"}, "DomainConfig": {"dt": "other-ns/ldap"}}},
			wantFiles: []string{"protocol-corp-openid.yaml"},
			wantSkips: []Skip{
				{Kind: "DomainConfig", Describe: `Keystone configuration of domain "team" (ID dt)`, Reason: "is already managed by DomainConfig other-ns/ldap in the cluster: skipped"},
				{Kind: "Mapping", Describe: `Keystone mapping "corp-map"`, Reason: "is already managed by Mapping team-x/sso-rules in the cluster: skipped"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			answers := team()
			answers["GET projects"] = keystonetest.Answer{Body: `{"projects": []}`}
			objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(objs, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, f := range p.Files {
				names = append(names, f.Name)
				if want, ok := tc.wantText[f.Name]; ok {
					if diff := cmp.Diff(want, string(f.Data)); diff != "" {
						t.Errorf("%s (-want +got):\n%s", f.Name, diff)
					}
				}
			}
			if diff := cmp.Diff(tc.wantFiles, names); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSkips, p.Skipped, cmpEmpty()); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// The protocol referencing a mapping that a resource of the target namespace manages names
// that resource.
func TestFederationReferencesClaimed(t *testing.T) {
	objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: team()}, Filter{Domain: "team", Kinds: []string{"mapping", "protocol"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine", Claimed: map[string]map[string]string{"Mapping": {"corp-map": "team-x/sso-rules"}}})
	if err != nil || len(p.Files) != 1 {
		t.Fatalf("Build: %v, %d files; want the protocol's only", err, len(p.Files))
	}
	var m struct {
		Spec struct {
			ForProvider v1alpha1.ProtocolParameters `json:"forProvider"`
		} `json:"spec"`
	}
	if err := yamlUnmarshal(p.Files[0].Data, &m); err != nil {
		t.Fatal(err)
	}
	if r := m.Spec.ForProvider.MappingRef; r == nil || r.Name != "sso-rules" {
		t.Errorf("mappingRef %+v, want the managing resource sso-rules", r)
	}
}

// A domain's configuration becomes the LDAP spec whose rendering is what Keystone holds; what
// the spec cannot say is named in a note, and a configuration that is not LDAP is unsupported.
func TestDomainConfigObject(t *testing.T) {
	bind := identityv1alpha1.SecretReference{Name: "ldap-bind-d1"}
	s := func(v string) *string { return &v }
	b := func(v bool) *bool { return &v }
	n := func(v int32) *int32 { return &v }
	base := func() map[string]any {
		return map[string]any{"url": "ldaps://ldap", "user": "cn=bind", "suffix": "dc=x", "user_tree_dn": "ou=u,dc=x",
			"user_enabled_invert": "true", "user_enabled_default": "false"}
	}
	with := func(extra map[string]any, drop ...string) keystone.DomainConfig {
		l := base()
		for k, v := range extra {
			l[k] = v
		}
		for _, k := range drop {
			delete(l, k)
		}
		return keystone.DomainConfig{"identity": {"driver": "ldap"}, "ldap": l}
	}
	note := "the bind credentials are not imported (Keystone never returns the password): before applying, create the Secret \"ldap-bind-d1\" in the resource's namespace with the keys username (the bind DN, \"cn=bind\") and password"
	minimal := v1alpha1.LDAPConfig{URL: "ldaps://ldap", BindCredentialsSecretRef: bind, Suffix: "dc=x", Users: v1alpha1.LDAPUsers{TreeDN: "ou=u,dc=x"}}
	cases := map[string]struct {
		cfg             keystone.DomainConfig
		want            *v1alpha1.LDAPConfig
		wantNotes       []string
		wantUnsupported string
	}{
		"Minimal": {cfg: with(nil), want: &minimal, wantNotes: []string{note}},
		"Everything": {
			cfg: with(map[string]any{"user_filter": "(x=1)", "user_objectclass": "person", "user_id_attribute": "uid", "user_name_attribute": "cn",
				"user_mail_attribute": "mail", "group_tree_dn": "ou=g", "group_member_attribute": "member", "use_tls": true,
				"tls_req_cert": "demand", "use_pool": "false", "pool_size": 10, "page_size": "100", "user_enabled_attribute": "active"}),
			want: &v1alpha1.LDAPConfig{URL: "ldaps://ldap", BindCredentialsSecretRef: bind, Suffix: "dc=x",
				Users:  v1alpha1.LDAPUsers{TreeDN: "ou=u,dc=x", Filter: s("(x=1)"), ObjectClass: s("person"), IDAttribute: s("uid"), NameAttribute: s("cn"), MailAttribute: s("mail")},
				Groups: &v1alpha1.LDAPGroups{TreeDN: "ou=g", MemberAttribute: s("member")},
				TLS:    &v1alpha1.LDAPTLS{StartTLS: b(true), RequireCert: s("demand")}, Pool: &v1alpha1.LDAPPool{Enabled: b(false), Size: n(10)},
				ExtraOptions: map[string]v1alpha1.LDAPOptionValue{"page_size": "100", "user_enabled_attribute": "active",
					"user_enabled_default": "false", "user_enabled_invert": "true"}},
			wantNotes: []string{note},
		},
		"Escaped": {
			cfg:       with(map[string]any{"user_filter": "(cn=$$x%%)"}),
			want:      &v1alpha1.LDAPConfig{URL: "ldaps://ldap", BindCredentialsSecretRef: bind, Suffix: "dc=x", Users: v1alpha1.LDAPUsers{TreeDN: "ou=u,dc=x", Filter: s("(cn=$x%)")}},
			wantNotes: []string{note},
		},
		"NoEnabledDefaults": {
			cfg: with(nil, "user_enabled_invert", "user_enabled_default"), want: &minimal,
			wantNotes: []string{note, "Keystone holds options this spec cannot reproduce exactly (ldap.user_enabled_default, ldap.user_enabled_invert): the resource reports them as a difference, and adopting it rewrites them as the spec says"},
		},
		"RefusedOptions": {
			cfg: with(map[string]any{"group_filter": "(g=1)", "use_tls": "maybe"}), want: &minimal,
			wantNotes: []string{note, "Keystone holds options this spec cannot reproduce exactly (ldap.group_filter, ldap.use_tls): the resource reports them as a difference, and adopting it rewrites them as the spec says"},
		},
		"NotLDAP": {
			cfg:             keystone.DomainConfig{"identity": {"driver": "sql"}},
			wantUnsupported: `is not an LDAP configuration (its [identity] driver is "sql"): a DomainConfig manages LDAP configurations only; skipped`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := domainConfigObject("d1", "dom", tc.cfg)
			if diff := cmp.Diff(tc.wantUnsupported, o.Unsupported); diff != "" {
				t.Errorf("unsupported (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantNotes, o.Notes, cmpEmpty()); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if tc.want == nil {
				if o.Build != nil {
					t.Error("an unsupported configuration can be built")
				}
				return
			}
			got := o.Build(refTable{}).(v1alpha1.DomainConfigParameters)
			if diff := cmp.Diff(*tc.want, got.LDAP); diff != "" {
				t.Errorf("ldap (-want +got):\n%s", diff)
			}
			if got.DomainID == nil || *got.DomainID != "d1" {
				t.Errorf("domainId %v, want d1", got.DomainID)
			}
		})
	}
}
