package importer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	// BuiltInPathPrefix starts the paths of the users authentik makes for itself (outposts'
	// service accounts live under goauthentik.io/outposts).
	BuiltInPathPrefix = "goauthentik.io/"

	unsupportedInternalSA = "is an internal service account, which authentik makes for an outpost and a User cannot stand for (its type cannot be set): skipped"
	skipBuiltIn           = "is made by authentik itself (its bootstrap admin, the admins' group, the anonymous user, or a user under a goauthentik.io/ path): left out; pass --include-builtin to import it"
	noteUserPassword      = "the password is not imported (authentik never returns it): to manage it, set spec.forProvider.passwordSecretRef to a key of a Secret in the resource's namespace; unset, the user keeps its password"
	noteOtherProvider     = "its provider (ID %d) is of a type this provider has no kind for (LDAP, RAC, SCIM...): the spec leaves it unset, so the application keeps it"
)

// builtInUsers and builtInGroups are the objects a fresh authentik makes by itself, by
// username and name: the bootstrap admin and its group, and the anonymous user of guardian.
var (
	builtInUsers  = []string{"akadmin", "AnonymousUser"}
	builtInGroups = []string{"authentik Admins"}
)

func (l *akLister) groups(ctx context.Context) error {
	gs, err := listAll(ctx, "groups", func(p int32) ([]api.Group, api.Pagination, error) {
		r, resp, err := l.api.CoreAPI.CoreGroupsList(ctx).IncludeUsers(false).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, g := range gs {
		o := akObject(kindGroup, describeAk("group", g.Name, "pk", g.Pk), g.Pk, g.Name)
		o.Marker = authentik.AttributeMarker(g.Attributes)
		l.groupMarker[g.Pk] = o.Marker
		if !l.f.BuiltIn && slices.Contains(builtInGroups, g.Name) {
			o.Unsupported = skipBuiltIn
		}
		attrs, err := attributes(o.Describe, g.Attributes)
		if err != nil {
			return err
		}
		roles := make([]string, 0, len(g.RolesObj))
		for _, r := range g.RolesObj {
			roles = append(roles, r.Name)
		}
		o.Build = func(r Refs) any {
			fp := akv1.GroupParameters{Name: g.Name, IsSuperuser: new(g.GetIsSuperuser()), Attributes: attrs,
				Roles: authentik.NonNil(authentik.SortedSet(roles))}
			fp.Parents, fp.ParentRefs = refsOrIDs(r, kindGroup, g.Parents)
			return fp
		}
		l.emit(o)
	}
	return nil
}

func (l *akLister) users(ctx context.Context) error {
	us, err := listAll(ctx, "users", func(p int32) ([]api.User, api.Pagination, error) {
		r, resp, err := l.api.CoreAPI.CoreUsersList(ctx).IncludeGroups(false).IncludeRoles(false).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, u := range us {
		o := akObject(kindUser, describeAk("user", u.Username, "pk", itoa(u.Pk)), itoa(u.Pk), u.Username)
		o.Marker = authentik.AttributeMarker(u.Attributes)
		l.userMarker[itoa(u.Pk)] = o.Marker
		switch {
		case u.GetType() == api.USERTYPEENUM_INTERNAL_SERVICE_ACCOUNT:
			o.Unsupported = unsupportedInternalSA
		case !l.f.BuiltIn && (slices.Contains(builtInUsers, u.Username) || strings.HasPrefix(u.GetPath(), BuiltInPathPrefix)):
			o.Unsupported = skipBuiltIn
		}
		attrs, err := attributes(o.Describe, u.Attributes)
		if err != nil {
			return err
		}
		o.Notes = []string{noteUserPassword}
		o.Build = func(r Refs) any {
			fp := akv1.UserParameters{Username: u.Username, Name: new(u.Name), Email: new(u.GetEmail()),
				IsActive: new(u.GetIsActive()), Type: new(string(u.GetType())), Path: nonEmpty(u.GetPath()), Attributes: attrs}
			fp.Groups, fp.GroupRefs = refsOrIDs(r, kindGroup, u.Groups)
			return fp
		}
		l.emit(o)
	}
	return nil
}

func (l *akLister) applications(ctx context.Context) error {
	if !l.f.kind(kindApplication) {
		return nil
	}
	apps, err := l.listApplications(ctx)
	if err != nil {
		return err
	}
	for _, a := range apps {
		o := akObject(kindApplication, describeAk("application", a.Name, "slug", a.Slug), a.Slug, a.Slug)
		o.Marker = appMarker(a)
		rest, _, _, _ := provenance.ExtractFromText(a.GetMetaDescription())
		pk, providerKind := l.applicationProvider(a, o)
		o.Build = func(r Refs) any {
			fp := akv1.ApplicationParameters{Name: a.Name, Slug: a.Slug, Group: nonEmpty(a.GetGroup()),
				LaunchURL: nonEmpty(a.GetMetaLaunchUrl()), Description: nonEmpty(rest), Publisher: nonEmpty(a.GetMetaPublisher()),
				IconURL: nonEmpty(a.GetMetaIcon()), OpenInNewTab: new(a.GetOpenInNewTab()), Hidden: new(a.GetMetaHide())}
			if m, ok := a.GetPolicyEngineModeOk(); ok && m != nil {
				fp.PolicyEngineMode = new(string(*m))
			}
			if pk != nil && providerKind != "" {
				setApplicationProvider(&fp, providerKind, r, *pk)
			}
			for _, b := range a.BackchannelProviders {
				fp.BackchannelProviderIDs = append(fp.BackchannelProviderIDs, itoa(b))
			}
			fp.BackchannelProviderIDs = authentik.SortedSet(fp.BackchannelProviderIDs)
			return fp
		}
		l.emit(o)
	}
	return nil
}

// applicationProvider is the application's provider and its kind ("" when it is a provider
// the importer does not list, which the object's notes then say).
func (l *akLister) applicationProvider(a api.Application, o *Object) (*int32, string) {
	pk, ok := a.GetProviderOk()
	if !ok || pk == nil {
		return nil, ""
	}
	kind := l.providerKind[*pk]
	if kind == "" {
		o.Notes = append(o.Notes, fmt.Sprintf(noteOtherProvider, *pk))
	}
	return pk, kind
}

// setApplicationProvider points the application at its provider, by reference to the provider's
// resource when that is imported too.
func setApplicationProvider(fp *akv1.ApplicationParameters, kind string, r Refs, pk int32) {
	ref, id := ref(r, kind, itoa(pk))
	switch kind {
	case kindOAuth2Provider:
		fp.OAuth2ProviderRef, fp.OAuth2ProviderID = ref, id
	case kindSAMLProvider:
		fp.SAMLProviderRef, fp.SAMLProviderID = ref, id
	case kindProxyProvider:
		fp.ProxyProviderRef, fp.ProxyProviderID = ref, id
	case kindLDAPProvider:
		fp.LDAPProviderRef, fp.LDAPProviderID = ref, id
	}
}
