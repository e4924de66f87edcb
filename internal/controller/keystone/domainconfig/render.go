package domainconfig

import (
	"sort"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// Keystone's option groups and the options this package treats specially.
const (
	groupIdentity = "identity"
	groupLDAP     = "ldap"
	optDriver     = "driver"
	optPassword   = "password"

	keyUsername = "username"
	keyPassword = "password"

	enabledPrefix = "user_enabled_"
)

// Render turns the spec into Keystone's configuration: [identity] driver = ldap and the [ldap]
// options of the fields that are set. Unless extraOptions sets a user_enabled_* option,
// user_enabled_invert = true and user_enabled_default = false make users of directories without
// an enabled attribute (plain inetOrgPerson) read as enabled. password "" leaves it out.
func Render(l *v1alpha1.LDAPConfig, user, password string) map[string]map[string]string {
	// Extra options first, so that typed fields win should a denied key slip past admission.
	o := map[string]string{}
	enabledSet := false
	for k, v := range l.ExtraOptions {
		o[k] = string(v)
		enabledSet = enabledSet || strings.HasPrefix(k, enabledPrefix)
	}
	if !enabledSet {
		o["user_enabled_invert"] = "true"
		o["user_enabled_default"] = "false"
	}
	o["url"], o["user"], o["suffix"], o["user_tree_dn"] = l.URL, user, l.Suffix, l.Users.TreeDN
	if password != "" {
		o[optPassword] = password
	}
	set := func(k string, v *string) {
		if v != nil {
			o[k] = *v
		}
	}
	setBool := func(k string, v *bool) {
		if v != nil {
			o[k] = strconv.FormatBool(*v)
		}
	}
	setInt := func(k string, v *int32) {
		if v != nil {
			o[k] = strconv.Itoa(int(*v))
		}
	}
	u := l.Users
	set("user_filter", u.Filter)
	set("user_objectclass", u.ObjectClass)
	set("user_id_attribute", u.IDAttribute)
	set("user_name_attribute", u.NameAttribute)
	set("user_mail_attribute", u.MailAttribute)
	if g := l.Groups; g != nil {
		o["group_tree_dn"] = g.TreeDN
		set("group_filter", g.Filter)
		set("group_objectclass", g.ObjectClass)
		set("group_id_attribute", g.IDAttribute)
		set("group_name_attribute", g.NameAttribute)
		set("group_member_attribute", g.MemberAttribute)
	}
	if t := l.TLS; t != nil {
		setBool("use_tls", t.StartTLS)
		set("tls_req_cert", t.RequireCert)
		set("tls_cacertfile", t.CACertFile)
		set("tls_cacertdir", t.CACertDir)
	}
	if p := l.Pool; p != nil {
		setBool("use_pool", p.Enabled)
		setInt("pool_size", p.Size)
		setInt("pool_retry_max", p.RetryMax)
		setInt("pool_connection_timeout", p.ConnectionTimeoutSeconds)
		setInt("pool_connection_lifetime", p.ConnectionLifetimeSeconds)
	}
	return map[string]map[string]string{groupIdentity: {optDriver: "ldap"}, groupLDAP: o}
}

// Escape returns the configuration as Keystone must store it to use the values given. Keystone
// reads a domain's options through oslo.config, which substitutes "$name" and "${group.name}"
// with other options' values ("$$" reads as "$"; an unknown name fails every identity call of
// the domain), and it first %-formats every non-sensitive string value with the sensitive ones
// ("%%" reads as "%", "%(password)s" would inline the password). So every "$" is doubled, and
// every "%" of a value other than the password (the one sensitive option) too. Keystone's API
// returns the stored, escaped strings, so Observe compares them with the escaped rendering.
func Escape(cfg map[string]map[string]string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(cfg))
	for g, opts := range cfg {
		out[g] = make(map[string]string, len(opts))
		for k, v := range opts {
			v = strings.ReplaceAll(v, "$", "$$")
			if g != groupLDAP || k != optPassword {
				v = strings.ReplaceAll(v, "%", "%%")
			}
			out[g][k] = v
		}
	}
	return out
}

// SingleLines fails, naming the option but never its value, when a value holds a line break:
// the API server's validation already refuses them in the spec, this also covers the Secret's
// values and resources that bypassed admission.
func SingleLines(cfg map[string]map[string]string) error {
	groups := make([]string, 0, len(cfg))
	for g := range cfg {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		keys := make([]string, 0, len(cfg[g]))
		for k := range cfg[g] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if hasLineBreak(cfg[g][k]) || hasLineBreak(k) {
				return errors.Errorf(errOptionLine, g, k, g)
			}
		}
	}
	return nil
}

func hasLineBreak(s string) bool { return strings.ContainsAny(s, "\r\n") }

func replaceAll(s, old, repl string) string { return strings.ReplaceAll(s, old, repl) }
