package importer

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/domainconfig"
)

const kindDomainConfig = "DomainConfig"

const (
	unsupportedNotLDAP = "is not an LDAP configuration (its [identity] driver is %q): a DomainConfig manages LDAP configurations only; skipped"
	noteBind           = "the bind credentials are not imported (Keystone never returns the password): before applying, create the Secret %q in the resource's namespace with the keys username (the bind DN, %q) and password"
	noteInexact        = "Keystone holds options this spec cannot reproduce exactly (%s): the resource reports them as a difference, and adopting it rewrites them as the spec says"
	errGetConfig       = "cannot read the configuration of Keystone domain %s"
)

// domainConfigs reads each domain's configuration (Keystone has no list of them); a domain
// without one answers 404.
func (l *ksLister) domainConfigs(ctx context.Context) error {
	if !l.f.kind(kindDomainConfig) {
		return nil
	}
	for _, id := range l.inScope {
		name := l.domainName[id]
		if !l.f.name(name) {
			continue
		}
		cfg, err := keystone.GetDomainConfig(ctx, l.sc, id)
		if keystone.IsNotFound(err) {
			continue
		}
		if err != nil {
			return keystone.Wrap(err, errGetConfig, id)
		}
		l.out = append(l.out, domainConfigObject(id, name, cfg))
	}
	return nil
}

func domainConfigObject(domainID, domainName string, cfg keystone.DomainConfig) *Object {
	o := &Object{
		Kind: kindDomainConfig, APIVersion: v1alpha1.SchemeGroupVersion.String(),
		GroupKind: v1alpha1.SchemeGroupVersion.WithKind(kindDomainConfig).GroupKind().String(),
		ID:        domainID, Name: domainName,
		Describe:   fmt.Sprintf("Keystone configuration of domain %q (ID %s)", domainName, domainID),
		Markerless: true,
	}
	have := stringOptions(cfg)
	if d := have["identity"]["driver"]; d != "ldap" {
		o.Unsupported = fmt.Sprintf(unsupportedNotLDAP, d)
		return o
	}
	secret := "ldap-bind-" + strings.ToLower(domainID)
	ldap, user := ldapFromOptions(have["ldap"])
	ldap.BindCredentialsSecretRef = identityv1alpha1.SecretReference{Name: secret}
	o.Notes = []string{fmt.Sprintf(noteBind, secret, user)}
	if diff := differing(domainconfig.Escape(domainconfig.Render(&ldap, user, "")), have); diff != "" {
		o.Notes = append(o.Notes, fmt.Sprintf(noteInexact, diff))
	}
	o.Build = func(r Refs) any {
		fp := v1alpha1.DomainConfigParameters{LDAP: ldap}
		fp.DomainRef, fp.DomainID = ref(r, kindDomain, domainID)
		return fp
	}
	return o
}

// stringOptions renders the options as strings, as the driver compares them (a hand-made
// configuration may hold booleans or numbers); the password is never returned, and left out.
func stringOptions(c keystone.DomainConfig) map[string]map[string]string {
	out := map[string]map[string]string{}
	for g, opts := range c {
		out[g] = map[string]string{}
		for k, v := range opts {
			if g == "ldap" && k == "password" {
				continue
			}
			if s, ok := v.(string); ok {
				out[g][k] = s
			} else {
				out[g][k] = fmt.Sprint(v)
			}
		}
	}
	return out
}

// unescape undoes domainconfig.Escape: Keystone returns the stored strings, in which "$" and
// "%" are doubled to mean themselves.
func unescape(v string) string {
	return strings.ReplaceAll(strings.ReplaceAll(v, "$$", "$"), "%%", "%")
}

// ldapFromOptions turns Keystone's [ldap] options into the spec, the inverse of
// domainconfig.Render, and returns the bind DN (which the spec takes from a Secret). Options the
// spec refuses in extraOptions (driver wiring, user_allow_*...) are left out; differing reports
// them.
func ldapFromOptions(in map[string]string) (v1alpha1.LDAPConfig, string) {
	o := options{}
	for k, v := range in {
		o[k] = unescape(v)
	}
	user := o.must("user")
	l := v1alpha1.LDAPConfig{URL: o.must("url"), Suffix: o.must("suffix")}
	l.Users = v1alpha1.LDAPUsers{TreeDN: o.must("user_tree_dn"), Filter: o.take("user_filter"), ObjectClass: o.take("user_objectclass"),
		IDAttribute: o.take("user_id_attribute"), NameAttribute: o.take("user_name_attribute"), MailAttribute: o.take("user_mail_attribute")}
	if tree := o.take("group_tree_dn"); tree != nil {
		l.Groups = &v1alpha1.LDAPGroups{TreeDN: *tree, Filter: o.take("group_filter"), ObjectClass: o.take("group_objectclass"),
			IDAttribute: o.take("group_id_attribute"), NameAttribute: o.take("group_name_attribute"), MemberAttribute: o.take("group_member_attribute")}
	}
	if t := (v1alpha1.LDAPTLS{StartTLS: o.bool("use_tls"), RequireCert: o.take("tls_req_cert"), CACertFile: o.take("tls_cacertfile"), CACertDir: o.take("tls_cacertdir")}); t != (v1alpha1.LDAPTLS{}) {
		l.TLS = &t
	}
	if p := (v1alpha1.LDAPPool{Enabled: o.bool("use_pool"), Size: o.int("pool_size"), RetryMax: o.int("pool_retry_max"),
		ConnectionTimeoutSeconds: o.int("pool_connection_timeout"), ConnectionLifetimeSeconds: o.int("pool_connection_lifetime")}); p != (v1alpha1.LDAPPool{}) {
		l.Pool = &p
	}
	o.dropEnabledDefaults()
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if refusedExtra(k) {
			continue
		}
		if l.ExtraOptions == nil {
			l.ExtraOptions = map[string]v1alpha1.LDAPOptionValue{}
		}
		l.ExtraOptions[k] = v1alpha1.LDAPOptionValue(o[k])
	}
	return l, user
}

// options are the [ldap] options not yet taken by a typed field.
type options map[string]string

// take returns the option and removes it; nil when it is not set.
func (o options) take(k string) *string {
	v, ok := o[k]
	if !ok {
		return nil
	}
	delete(o, k)
	return &v
}

// must is take for the options the spec requires ("" when Keystone has none).
func (o options) must(k string) string {
	if v := o.take(k); v != nil {
		return *v
	}
	return ""
}

// bool takes a boolean option; one that is not a boolean is left, for differing to report.
func (o options) bool(k string) *bool {
	b, err := strconv.ParseBool(o[k])
	if err != nil {
		return nil
	}
	delete(o, k)
	return &b
}

// int takes an integer option; one that is not an integer is left, for differing to report.
func (o options) int(k string) *int32 {
	n, err := strconv.ParseInt(o[k], 10, 32)
	if err != nil {
		return nil
	}
	delete(o, k)
	v := int32(n)
	return &v
}

// dropEnabledDefaults removes the two user_enabled_* options Render adds when no other is set.
func (o options) dropEnabledDefaults() {
	enabled := 0
	for k := range o {
		if strings.HasPrefix(k, "user_enabled_") {
			enabled++
		}
	}
	if enabled == 2 && o["user_enabled_invert"] == "true" && o["user_enabled_default"] == "false" {
		delete(o, "user_enabled_invert")
		delete(o, "user_enabled_default")
	}
}

// ownedOptions are the options the CRD refuses in extraOptions (typed fields, driver wiring,
// the read-only switches): one still left once the typed fields took theirs (a group filter
// without a group tree, a boolean that is not one) cannot be imported.
var ownedOptions = []string{"url", "user", "password", "suffix", "user_tree_dn", "user_filter", "user_objectclass",
	"user_id_attribute", "user_name_attribute", "user_mail_attribute", "group_tree_dn", "group_filter", "group_objectclass",
	"group_id_attribute", "group_name_attribute", "group_member_attribute", "tls_cacertfile", "tls_cacertdir", "use_tls",
	"tls_req_cert", "use_pool", "pool_size", "pool_retry_max", "pool_connection_timeout", "pool_connection_lifetime",
	"driver", "domain_config_dir", "user_allow_create", "user_allow_update", "user_allow_delete", "group_allow_create",
	"group_allow_update", "group_allow_delete"}

// refusedExtra reports whether extraOptions cannot hold option k.
func refusedExtra(k string) bool { return slices.Contains(ownedOptions, k) || !validOptionName(k) }

func validOptionName(k string) bool {
	if k == "" || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	return strings.Trim(k, "abcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// differing names the options (group.option) that want and have disagree on, sorted; "" when
// none.
func differing(want, have map[string]map[string]string) string {
	keys := map[string]bool{}
	for _, cfg := range []map[string]map[string]string{want, have} {
		for g, opts := range cfg {
			for k := range opts {
				w, inWant := want[g][k]
				h, inHave := have[g][k]
				if w != h || inWant != inHave {
					keys[g+"."+k] = true
				}
			}
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(keys)), ", ")
}
