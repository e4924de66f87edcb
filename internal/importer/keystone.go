package importer

import (
	"context"
	"fmt"
	"net/url"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/user"
)

// The Keystone kinds the importer lists, in the order they are listed.
const (
	kindDomain         = "Domain"
	kindProject        = "Project"
	kindRole           = "Role"
	kindGroup          = "Group"
	kindUser           = "User"
	kindRoleAssignment = "RoleAssignment"
)

// KeystoneKinds are the Keystone kinds the importer knows.
var KeystoneKinds = []string{kindDomain, kindProject, kindRole, kindGroup, kindUser, kindRoleAssignment,
	kindGroupMembership, kindImpliedRole, kindDomainConfig, kindIdentityProvider, kindMapping, kindProtocol, kindRegisteredLimit, kindLimit, kindRegion, kindService, kindEndpoint, kindApplicationCredential}

// keystoneObject fills what every Keystone object shares.
func keystoneObject(kind, typ, id, name string, marker keystone.MarkerAttr) *Object {
	return &Object{
		Kind: kind, APIVersion: v1alpha1.SchemeGroupVersion.String(),
		GroupKind: v1alpha1.SchemeGroupVersion.WithKind(kind).GroupKind().String(),
		ID:        id, Name: name, Describe: fmt.Sprintf("Keystone %s %q (ID %s)", typ, name, id),
		Marker: keystone.ParseMarker(marker),
	}
}

// ListKeystone lists the Keystone objects the filter selects. A list Keystone truncated is an
// error: an import must not quietly leave objects out.
func ListKeystone(ctx context.Context, sc keystone.API, f Filter) ([]*Object, error) {
	l := &ksLister{sc: sc, f: f}
	if err := l.domains(ctx); err != nil {
		return nil, err
	}
	steps := []func(context.Context) error{l.projects, l.roles, l.groups, l.users, l.assignments, l.memberships, l.impliedRoles, l.domainConfigs, l.federation, l.limits, l.catalog, l.appCredentials}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return l.out, nil
}

// ksLister lists one import's Keystone objects.
type ksLister struct {
	sc  keystone.API
	f   Filter
	out []*Object

	// inScope are the IDs of the domains listed (the one of --domain, or all).
	inScope []string
	// domainName maps the IDs of the domains in scope to their names.
	domainName map[string]string
	// projectDomain maps every listed project's ID to its domain's.
	projectDomain map[string]string
	// rolesInScope are the roles in scope by ID (global ones without --domain), whatever
	// --name says: implied-role rules are listed by their prior role.
	rolesInScope map[string]keystone.Role
	// groupsInScope are the groups in scope, whatever --name says: memberships are listed by
	// group.
	groupsInScope []keystone.Group
	// usersInScope are the users in scope, whatever --name says: application credentials are
	// listed by user.
	usersInScope []keystone.User
}

func (l *ksLister) domains(ctx context.Context) error {
	ds, err := keystone.Domains.List(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "domains")
	}
	found := false
	l.domainName = map[string]string{}
	for _, d := range ds {
		if l.f.Domain != "" && d.Name != l.f.Domain {
			continue
		}
		found = true
		l.inScope = append(l.inScope, d.ID)
		l.domainName[d.ID] = d.Name
		if l.f.kind(kindDomain) && l.f.name(d.Name) {
			o := keystoneObject(kindDomain, "domain", d.ID, d.Name, d.Marker)
			o.Build = func(Refs) any {
				return v1alpha1.DomainParameters{Name: d.Name, Description: nonEmpty(d.Description), Enabled: &d.Enabled}
			}
			l.out = append(l.out, o)
		}
	}
	if l.f.Domain != "" && !found {
		return errors.Errorf(errNoDomain, l.f.Domain)
	}
	return nil
}

// inDomains lists a collection per domain with --domain, else whole.
func inDomains[T any](ctx context.Context, l *ksLister, c keystone.Collection[T]) ([]T, error) {
	if l.f.Domain == "" {
		all, err := c.List(ctx, l.sc, nil)
		return all, keystone.Wrap(err, errList, c.Plural)
	}
	all, err := c.List(ctx, l.sc, url.Values{"domain_id": {l.inScope[0]}})
	return all, keystone.Wrap(err, errList, c.Plural)
}

func (l *ksLister) projects(ctx context.Context) error {
	ps, err := inDomains(ctx, l, keystone.Projects)
	if err != nil {
		return err
	}
	l.projectDomain = map[string]string{}
	for _, p := range ps {
		l.projectDomain[p.ID] = p.DomainID
		if !l.f.kind(kindProject) || !l.f.name(p.Name) {
			continue
		}
		o := keystoneObject(kindProject, "project", p.ID, p.Name, p.Marker)
		o.Build = func(r Refs) any {
			fp := v1alpha1.ProjectParameters{Name: p.Name, Description: nonEmpty(p.Description), Enabled: &p.Enabled}
			fp.DomainRef, fp.DomainID = ref(r, kindDomain, p.DomainID)
			// A top-level project's parent is its domain, which domainRef already says.
			if p.ParentID != "" && p.ParentID != p.DomainID {
				fp.ParentRef, fp.ParentID = ref(r, kindProject, p.ParentID)
			}
			if len(p.Tags) > 0 {
				fp.Tags = &p.Tags
			}
			return fp
		}
		l.out = append(l.out, o)
	}
	return nil
}

func (l *ksLister) roles(ctx context.Context) error {
	if !l.f.kind(kindRole) && !l.f.kind(kindImpliedRole) {
		return nil
	}
	var rs []keystone.Role
	if l.f.Domain == "" {
		// Keystone lists global roles unless asked for a domain's.
		global, err := keystone.Roles.List(ctx, l.sc, nil)
		if err != nil {
			return keystone.Wrap(err, errList, "roles")
		}
		rs = global
	}
	for _, d := range l.inScope {
		own, err := keystone.Roles.List(ctx, l.sc, url.Values{"domain_id": {d}})
		if err != nil {
			return keystone.Wrap(err, errList, "roles")
		}
		rs = append(rs, own...)
	}
	l.rolesInScope = map[string]keystone.Role{}
	for _, ro := range rs {
		l.rolesInScope[ro.ID] = ro
		if !l.f.kind(kindRole) || !l.f.name(ro.Name) {
			continue
		}
		o := keystoneObject(kindRole, "role", ro.ID, ro.Name, ro.Marker)
		o.Build = func(r Refs) any {
			fp := v1alpha1.RoleParameters{Name: ro.Name, Description: nonEmpty(ro.Description)}
			fp.DomainRef, fp.DomainID = ref(r, kindDomain, ro.DomainID)
			return fp
		}
		l.out = append(l.out, o)
	}
	return nil
}

func (l *ksLister) groups(ctx context.Context) error {
	if !l.f.kind(kindGroup) && !l.f.kind(kindGroupMembership) {
		return nil
	}
	gs, err := inDomains(ctx, l, keystone.Groups)
	if err != nil {
		return err
	}
	l.groupsInScope = gs
	for _, g := range gs {
		if !l.f.kind(kindGroup) || !l.f.name(g.Name) {
			continue
		}
		o := keystoneObject(kindGroup, "group", g.ID, g.Name, g.Marker)
		o.Build = func(r Refs) any {
			fp := v1alpha1.GroupParameters{Name: g.Name, Description: nonEmpty(g.Description)}
			fp.DomainRef, fp.DomainID = ref(r, kindDomain, g.DomainID)
			return fp
		}
		l.out = append(l.out, o)
	}
	return nil
}

const (
	notePassword   = "the password is not imported (Keystone never returns it): to manage it, set spec.forProvider.passwordSecretRef to a Secret key in the resource's namespace"
	unsupportedMap = "is mapped from a directory or an identity provider (not one of Keystone's own users): manage it through its DomainConfig or IdentityProvider; skipped"
)

func (l *ksLister) users(ctx context.Context) error {
	if !l.f.kind(kindUser) && !l.f.kind(kindApplicationCredential) {
		return nil
	}
	us, err := inDomains(ctx, l, keystone.Users)
	if err != nil {
		return err
	}
	l.usersInScope = us
	for _, u := range us {
		if !l.f.kind(kindUser) || !l.f.name(u.Name) {
			continue
		}
		o := keystoneObject(kindUser, "user", u.ID, u.Name, u.Marker)
		if keystone.IsShadowUserID(u.ID) {
			o.Unsupported = unsupportedMap
		}
		o.Notes = []string{notePassword}
		o.Build = func(r Refs) any {
			fp := v1alpha1.UserParameters{Name: u.Name, Description: nonEmpty(u.Description), Enabled: &u.Enabled, Email: nonEmpty(u.Email),
				Options: user.Options(u.Options)}
			fp.DomainRef, fp.DomainID = ref(r, kindDomain, u.DomainID)
			fp.DefaultProjectRef, fp.DefaultProjectID = ref(r, kindProject, u.DefaultProjectID)
			return fp
		}
		l.out = append(l.out, o)
	}
	return nil
}

// keystoneLister lists through sc.
func keystoneLister(sc keystone.API) func(context.Context, Filter) ([]*Object, error) {
	return func(ctx context.Context, f Filter) ([]*Object, error) { return ListKeystone(ctx, sc, f) }
}
