//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// Every CEL rule of DomainConfig, IdentityProvider, Mapping and Protocol, against the real API
// server. The objects name a ProviderConfig that does not exist, so the controllers never reach
// Keystone with them.

var noPC = xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "cel-no-such-providerconfig"}}

// celRejected asserts that the API server refuses to create obj with a message containing want.
func celRejected(t *testing.T, obj client.Object, want string) {
	t.Helper()
	err := kube.Create(context.Background(), obj)
	if err == nil {
		_ = kube.Delete(context.Background(), obj)
		t.Fatalf("%s was accepted; want it rejected with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s rejected with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

// celAccepted creates obj, which must be valid, and deletes it when the test ends.
func celAccepted(t *testing.T, obj client.Object) {
	t.Helper()
	if err := kube.Create(context.Background(), obj); err != nil {
		t.Fatalf("valid %s rejected: %v", obj.GetName(), err)
	}
	t.Cleanup(func() {
		if err := kube.Delete(context.Background(), obj); err != nil && !kerrors.IsNotFound(err) {
			t.Errorf("cannot delete %s: %v", obj.GetName(), err)
		}
	})
}

// celUpdateRejected applies change to the stored obj and asserts that the update is refused
// with a message containing want.
func celUpdateRejected(t *testing.T, obj client.Object, change func(), want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			t.Fatal(err)
		}
		change()
		err := kube.Update(context.Background(), obj)
		if kerrors.IsConflict(err) && time.Now().Before(deadline) {
			continue // the controller wrote the object meanwhile
		}
		if err == nil {
			t.Fatalf("update of %s was accepted; want it rejected with %q", obj.GetName(), want)
		}
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("update of %s rejected with %q; want a message containing %q", obj.GetName(), err, want)
		}
		return
	}
}

func celDomainConfig(name string, mutate ...func(*ksv1alpha1.DomainConfig)) *ksv1alpha1.DomainConfig {
	o := newDomainConfig(name, "cel-no-such-domain", "cel-no-such-secret")
	o.Spec.ClusterManagedResourceSpec = noPC
	o.Spec.ForProvider.LDAP.URL = "ldap://ldap.example.com"
	o.Spec.ForProvider.LDAP.Suffix = "dc=example,dc=com"
	o.Spec.ForProvider.LDAP.Users.TreeDN = "ou=people,dc=example,dc=com"
	o.Spec.ForProvider.LDAP.Groups.TreeDN = "ou=groups,dc=example,dc=com"
	for _, m := range mutate {
		m(o)
	}
	return o
}

func TestCELKeystoneFederationDomainConfig(t *testing.T) {
	t.Parallel()
	t.Run("NoDomain", func(t *testing.T) {
		celRejected(t, celDomainConfig("cel-dc-nodomain", func(o *ksv1alpha1.DomainConfig) { o.Spec.ForProvider.DomainRef = nil }),
			"set domainRef (or domainSelector) to the Domain this configuration belongs to")
	})
	t.Run("DomainIDImmutable", func(t *testing.T) {
		o := celDomainConfig("cel-dc-immutable", func(o *ksv1alpha1.DomainConfig) {
			o.Spec.ForProvider.DomainRef, o.Spec.ForProvider.DomainID = nil, ptr("aaaa")
		})
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.DomainID = ptr("bbbb") }, "domainId cannot change")
	})
	for _, key := range []string{"url", "password", "user_tree_dn", "tls_cacertfile", "driver", "user_allow_create", "group_allow_delete"} {
		t.Run("ExtraOptionsDenied/"+key, func(t *testing.T) {
			celRejected(t, celDomainConfig("cel-dc-deny-"+strings.ReplaceAll(key, "_", "-"), func(o *ksv1alpha1.DomainConfig) {
				o.Spec.ForProvider.LDAP.ExtraOptions = map[string]ksv1alpha1.LDAPOptionValue{key: "x"}
			}), "extraOptions must not set options owned by typed fields")
		})
	}
	t.Run("ExtraOptionsKeyGrammar", func(t *testing.T) {
		celRejected(t, celDomainConfig("cel-dc-key", func(o *ksv1alpha1.DomainConfig) {
			o.Spec.ForProvider.LDAP.ExtraOptions = map[string]ksv1alpha1.LDAPOptionValue{"ldap.page_size": "0"}
		}), "extraOptions keys are bare Keystone [ldap] option names")
	})
	for _, v := range []string{"0\nuser_allow_create = true", "0\r"} {
		t.Run("ExtraOptionsValueLineBreak", func(t *testing.T) {
			celRejected(t, celDomainConfig("cel-dc-value", func(o *ksv1alpha1.DomainConfig) {
				o.Spec.ForProvider.LDAP.ExtraOptions = map[string]ksv1alpha1.LDAPOptionValue{"page_size": ksv1alpha1.LDAPOptionValue(v)}
			}), "extraOptions values must be single lines")
		})
	}
	t.Run("ReadOnlyFalse", func(t *testing.T) {
		celRejected(t, celDomainConfig("cel-dc-readonly", func(o *ksv1alpha1.DomainConfig) { o.Spec.ForProvider.LDAP.ReadOnly = ptr(false) }),
			"readOnly: false is not supported")
	})
	inject := "x\nuser_allow_create = true"
	for field, set := range map[string]func(*ksv1alpha1.LDAPConfig){
		"url":                    func(l *ksv1alpha1.LDAPConfig) { l.URL = "ldap://x\nuse_tls = false" },
		"suffix":                 func(l *ksv1alpha1.LDAPConfig) { l.Suffix = inject },
		"users.treeDN":           func(l *ksv1alpha1.LDAPConfig) { l.Users.TreeDN = inject },
		"users.filter":           func(l *ksv1alpha1.LDAPConfig) { l.Users.Filter = ptr("(uid=*)\r") },
		"users.objectClass":      func(l *ksv1alpha1.LDAPConfig) { l.Users.ObjectClass = ptr(inject) },
		"users.idAttribute":      func(l *ksv1alpha1.LDAPConfig) { l.Users.IDAttribute = ptr(inject) },
		"users.nameAttribute":    func(l *ksv1alpha1.LDAPConfig) { l.Users.NameAttribute = ptr(inject) },
		"users.mailAttribute":    func(l *ksv1alpha1.LDAPConfig) { l.Users.MailAttribute = ptr(inject) },
		"groups.treeDN":          func(l *ksv1alpha1.LDAPConfig) { l.Groups.TreeDN = inject },
		"groups.filter":          func(l *ksv1alpha1.LDAPConfig) { l.Groups.Filter = ptr(inject) },
		"groups.objectClass":     func(l *ksv1alpha1.LDAPConfig) { l.Groups.ObjectClass = ptr(inject) },
		"groups.idAttribute":     func(l *ksv1alpha1.LDAPConfig) { l.Groups.IDAttribute = ptr(inject) },
		"groups.nameAttribute":   func(l *ksv1alpha1.LDAPConfig) { l.Groups.NameAttribute = ptr(inject) },
		"groups.memberAttribute": func(l *ksv1alpha1.LDAPConfig) { l.Groups.MemberAttribute = ptr(inject) },
		"tls.caCertFile": func(l *ksv1alpha1.LDAPConfig) {
			l.TLS = &ksv1alpha1.LDAPTLS{CACertFile: ptr("/etc/ca.pem\nuse_tls = false")}
		},
		"tls.caCertDir": func(l *ksv1alpha1.LDAPConfig) {
			l.TLS = &ksv1alpha1.LDAPTLS{CACertDir: ptr("/etc/ca\nuse_tls = false")}
		},
	} {
		t.Run("LineBreak/"+field, func(t *testing.T) {
			celRejected(t, celDomainConfig("cel-dc-line-"+strings.ToLower(strings.ReplaceAll(field, ".", "-")), func(o *ksv1alpha1.DomainConfig) {
				set(&o.Spec.ForProvider.LDAP)
			}), field+" must be a single line")
		})
	}
	t.Run("Valid", func(t *testing.T) {
		celAccepted(t, celDomainConfig("cel-dc-valid", func(o *ksv1alpha1.DomainConfig) {
			o.Spec.ForProvider.LDAP.ExtraOptions = map[string]ksv1alpha1.LDAPOptionValue{"page_size": "100", "user_enabled_attribute": "userAccountControl"}
		}))
	})
}

func celIdentityProvider(name string, mutate ...func(*ksv1alpha1.IdentityProvider)) *ksv1alpha1.IdentityProvider {
	o := newIdentityProvider(name, name, "cel-no-such-domain")
	o.Spec.ClusterManagedResourceSpec = noPC
	for _, m := range mutate {
		m(o)
	}
	return o
}

func TestCELKeystoneFederationIdentityProvider(t *testing.T) {
	t.Parallel()
	t.Run("NoDomain", func(t *testing.T) {
		celRejected(t, celIdentityProvider("cel-idp-nodomain", func(o *ksv1alpha1.IdentityProvider) { o.Spec.ForProvider.DomainRef = nil }),
			"without one Keystone creates a domain of its own")
	})
	t.Run("IDImmutable", func(t *testing.T) {
		o := celIdentityProvider("cel-idp-id")
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.ID = "other" }, "id cannot change: it is the identity provider's identity")
	})
	t.Run("DomainIDImmutable", func(t *testing.T) {
		o := celIdentityProvider("cel-idp-domain", func(o *ksv1alpha1.IdentityProvider) {
			o.Spec.ForProvider.DomainRef, o.Spec.ForProvider.DomainID = nil, ptr("aaaa")
		})
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.DomainID = ptr("bbbb") }, "domainId cannot change: Keystone keeps an identity provider in its domain")
	})
}

func celMapping(name string, mutate ...func(*ksv1alpha1.MappingRule)) *ksv1alpha1.Mapping {
	o := newMapping(name, name, oidcRules("https://cel.example.com"))
	o.Spec.ClusterManagedResourceSpec = noPC
	for _, m := range mutate {
		m(&o.Spec.ForProvider.Rules[0])
	}
	return o
}

func TestCELKeystoneFederationMapping(t *testing.T) {
	t.Parallel()
	t.Run("IDImmutable", func(t *testing.T) {
		o := celMapping("cel-map-id")
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.ID = "other" }, "id cannot change: it is the mapping's identity")
	})
	t.Run("RuleWithoutLocal", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-nolocal", func(r *ksv1alpha1.MappingRule) { r.Local = []ksv1alpha1.MappingLocal{} }),
			"a mapping rule needs at least one local entry")
	})
	t.Run("RuleWithoutRemote", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-noremote", func(r *ksv1alpha1.MappingRule) { r.Remote = []ksv1alpha1.MappingRemote{} }),
			"a mapping rule needs at least one remote entry")
	})
	t.Run("EmptyLocalEntry", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-emptylocal", func(r *ksv1alpha1.MappingRule) { r.Local = append(r.Local, ksv1alpha1.MappingLocal{}) }),
			"a local entry must set at least one of user, group, groups, groupIds, projects or domain")
	})
	t.Run("GroupByNameWithoutDomain", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-group", func(r *ksv1alpha1.MappingRule) { r.Local[1].Group.Domain = nil }),
			"a group is named either by id alone, or by name together with domain")
	})
	t.Run("GroupByIDAndName", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-group2", func(r *ksv1alpha1.MappingRule) { r.Local[1].Group.ID = ptr("abc") }),
			"a group is named either by id alone, or by name together with domain")
	})
	t.Run("DomainByIDAndName", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-domain", func(r *ksv1alpha1.MappingRule) { r.Local[1].Group.Domain.ID = ptr("abc") }),
			"a domain is named by exactly one of id or name")
	})
	t.Run("RemoteTwoConditions", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-twoconds", func(r *ksv1alpha1.MappingRule) { r.Remote[1].NotAnyOf = []string{"x"} }),
			"a remote entry takes at most one of anyOneOf, notAnyOf, blacklist and whitelist")
	})
	t.Run("RegexWithoutCondition", func(t *testing.T) {
		celRejected(t, celMapping("cel-map-regex", func(r *ksv1alpha1.MappingRule) { r.Remote[0].Regex = ptr(true) }),
			"regex applies to the values of anyOneOf, notAnyOf, blacklist or whitelist")
	})
}

func celProtocol(name string, mutate ...func(*ksv1alpha1.Protocol)) *ksv1alpha1.Protocol {
	o := newProtocol(name, "cel-no-such-idp", "cel-no-such-mapping")
	o.Spec.ClusterManagedResourceSpec = noPC
	for _, m := range mutate {
		m(o)
	}
	return o
}

func TestCELKeystoneFederationProtocol(t *testing.T) {
	t.Parallel()
	t.Run("NoIdentityProvider", func(t *testing.T) {
		celRejected(t, celProtocol("cel-proto-noidp", func(o *ksv1alpha1.Protocol) { o.Spec.ForProvider.IdentityProviderRef = nil }),
			"set identityProviderRef (or identityProviderSelector) to the IdentityProvider this protocol belongs to")
	})
	t.Run("NoMapping", func(t *testing.T) {
		celRejected(t, celProtocol("cel-proto-nomap", func(o *ksv1alpha1.Protocol) { o.Spec.ForProvider.MappingRef = nil }),
			"set mappingRef (or mappingSelector) to the Mapping this protocol applies")
	})
	t.Run("IDImmutable", func(t *testing.T) {
		o := celProtocol("cel-proto-id")
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.ID = "saml2" }, "id cannot change: it is the protocol's identity")
	})
	t.Run("IdentityProviderIDImmutable", func(t *testing.T) {
		o := celProtocol("cel-proto-idp", func(o *ksv1alpha1.Protocol) {
			o.Spec.ForProvider.IdentityProviderRef, o.Spec.ForProvider.IdentityProviderID = nil, ptr("idp-a")
		})
		celAccepted(t, o)
		celUpdateRejected(t, o, func() { o.Spec.ForProvider.IdentityProviderID = ptr("idp-b") }, "identityProviderId cannot change")
	})
}
