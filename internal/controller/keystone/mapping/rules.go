package mapping

import (
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/federation"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// ToKeystone converts the spec's rules to Keystone's rule JSON (gophercloud's types, whose JSON
// is Keystone's snake_case one-to-one).
func ToKeystone(rules []v1alpha1.MappingRule) []federation.MappingRule {
	out := make([]federation.MappingRule, 0, len(rules))
	for _, r := range rules {
		kr := federation.MappingRule{Local: []federation.RuleLocal{}, Remote: []federation.RuleRemote{}}
		for _, l := range r.Local {
			kr.Local = append(kr.Local, localToKeystone(l))
		}
		for _, rm := range r.Remote {
			kr.Remote = append(kr.Remote, federation.RuleRemote{
				Type: rm.Type, Regex: rm.Regex, AnyOneOf: rm.AnyOneOf, NotAnyOf: rm.NotAnyOf,
				Blacklist: rm.Blacklist, Whitelist: rm.Whitelist,
			})
		}
		out = append(out, kr)
	}
	return out
}

func localToKeystone(l v1alpha1.MappingLocal) federation.RuleLocal {
	kl := federation.RuleLocal{Domain: domainToKeystone(l.Domain), Groups: str(l.Groups), GroupIDs: str(l.GroupIDs)}
	if u := l.User; u != nil {
		kl.User = &federation.RuleUser{ID: str(u.ID), Name: str(u.Name), Email: str(u.Email), Domain: domainToKeystone(u.Domain)}
		if u.Type != nil {
			t := federation.UserType(*u.Type)
			kl.User.Type = &t
		}
	}
	if g := l.Group; g != nil {
		kl.Group = &federation.Group{ID: str(g.ID), Name: str(g.Name), Domain: domainToKeystone(g.Domain)}
	}
	for _, p := range l.Projects {
		kp := federation.RuleProject{Name: p.Name, Roles: []federation.RuleProjectRole{}}
		for _, r := range p.Roles {
			kp.Roles = append(kp.Roles, federation.RuleProjectRole{Name: r.Name})
		}
		kl.Projects = append(kl.Projects, kp)
	}
	return kl
}

func domainToKeystone(d *v1alpha1.MappingDomain) *federation.Domain {
	if d == nil {
		return nil
	}
	return &federation.Domain{ID: str(d.ID), Name: str(d.Name)}
}

// FromKeystone converts Keystone's rules to the spec's shape, for status.atProvider.
func FromKeystone(rules []federation.MappingRule) []v1alpha1.MappingRule {
	out := make([]v1alpha1.MappingRule, 0, len(rules))
	for _, r := range rules {
		mr := v1alpha1.MappingRule{Local: []v1alpha1.MappingLocal{}, Remote: []v1alpha1.MappingRemote{}}
		for _, l := range r.Local {
			mr.Local = append(mr.Local, localFromKeystone(l))
		}
		for _, rm := range r.Remote {
			mr.Remote = append(mr.Remote, v1alpha1.MappingRemote{
				Type: rm.Type, Regex: rm.Regex, AnyOneOf: rm.AnyOneOf, NotAnyOf: rm.NotAnyOf,
				Blacklist: rm.Blacklist, Whitelist: rm.Whitelist,
			})
		}
		out = append(out, mr)
	}
	return out
}

func localFromKeystone(kl federation.RuleLocal) v1alpha1.MappingLocal {
	l := v1alpha1.MappingLocal{Domain: domainFromKeystone(kl.Domain), Groups: strPtr(kl.Groups), GroupIDs: strPtr(kl.GroupIDs)}
	if u := kl.User; u != nil {
		l.User = &v1alpha1.MappingUser{ID: strPtr(u.ID), Name: strPtr(u.Name), Email: strPtr(u.Email), Domain: domainFromKeystone(u.Domain)}
		if u.Type != nil {
			t := string(*u.Type)
			l.User.Type = &t
		}
	}
	if g := kl.Group; g != nil {
		l.Group = &v1alpha1.MappingGroup{ID: strPtr(g.ID), Name: strPtr(g.Name), Domain: domainFromKeystone(g.Domain)}
	}
	for _, p := range kl.Projects {
		mp := v1alpha1.MappingProject{Name: p.Name, Roles: []v1alpha1.MappingRole{}}
		for _, r := range p.Roles {
			mp.Roles = append(mp.Roles, v1alpha1.MappingRole{Name: r.Name})
		}
		l.Projects = append(l.Projects, mp)
	}
	return l
}

func domainFromKeystone(d *federation.Domain) *v1alpha1.MappingDomain {
	if d == nil {
		return nil
	}
	return &v1alpha1.MappingDomain{ID: strPtr(d.ID), Name: strPtr(d.Name)}
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// strPtr is nil for "": Keystone's JSON omits empty fields, as the spec does.
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
