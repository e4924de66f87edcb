package authentik

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The lists below answer "what would authentik delete or detach with this object?" (see
// docs/adr/0002-authentik-provenance.md, "What a delete takes with it"). Each returns the
// objects as adoption.Dependents, with their marker or, for markerless objects of a kind we
// manage, that kind and the external name our resource would have. They run only right before
// a delete. authentik's used_by endpoints are not used: they miss policy bindings on a target
// or a user and a user's tokens.

const (
	TypeApplication = "authentik application"
	TypeGroup       = "authentik group"
	TypePolicy      = "authentik policy"
	TypeBinding     = "authentik policy binding"
	typeToken       = "authentik token"
	typeEntitlement = "authentik application entitlement"
	typeMembership  = "authentik group membership"

	errListBindings     = "cannot list the authentik policy bindings of %s"
	errListTokens       = "cannot list the authentik tokens of user %q"
	errListEntitlements = "cannot list the entitlements of authentik application %q"
	errReadChildren     = "cannot read the child groups of authentik group %q"
	errListMembers      = "cannot list the members of authentik group %q"
)

// BindingsOnTarget lists the policy bindings whose target is the policy binding model (an
// application's pbm_uuid): authentik deletes them with it. what names the target in errors
// and in the bindings' descriptions, e.g. `application "grafana"`.
func BindingsOnTarget(ctx context.Context, c *api.APIClient, pbm, what string) ([]adoption.Dependent, error) {
	bs, err := ListAll(ctx, func(page int32) ([]api.PolicyBinding, int32, error) {
		l, resp, err := c.PoliciesAPI.PoliciesBindingsList(ctx).Target(pbm).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListBindings, what)
	}
	out := make([]adoption.Dependent, 0, len(bs))
	for _, b := range bs {
		out = append(out, binding(b, "on "+what))
	}
	return out, nil
}

// BindingsOfPolicy lists the bindings of the policy (to applications, flows, flow-stage
// bindings...): authentik deletes them with the policy.
func BindingsOfPolicy(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	what := "policy " + strconv.Quote(name)
	bs, err := ListAll(ctx, func(page int32) ([]api.PolicyBinding, int32, error) {
		l, resp, err := c.PoliciesAPI.PoliciesBindingsList(ctx).Policy(pk).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListBindings, what)
	}
	var out []adoption.Dependent
	for _, b := range bs {
		if b.GetPolicy() == pk { // a server that ignored the filter must not make us report others' bindings
			out = append(out, binding(b, "to target "+b.Target))
		}
	}
	return out, nil
}

// BindingsOfGroup lists the policy bindings that bind the group (to an application, a flow,
// a stage...): authentik deletes them with the group.
func BindingsOfGroup(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	return bindingsOf(ctx, c, "group "+strconv.Quote(name), func(b api.PolicyBinding) bool {
		g, ok := b.GetGroupOk()
		return ok && g != nil && *g == pk
	})
}

// BindingsOfUser lists the policy bindings that bind the user: authentik deletes them with
// the user.
func BindingsOfUser(ctx context.Context, c *api.APIClient, pk int32, username string) ([]adoption.Dependent, error) {
	return bindingsOf(ctx, c, "user "+strconv.Quote(username), func(b api.PolicyBinding) bool {
		u, ok := b.GetUserOk()
		return ok && u != nil && *u == pk
	})
}

// memberBindingReads joins the deletions' reads of the bindings without a policy, the same
// question for each group and user deleted (see memberBindings).
var memberBindingReads clients.JoinedReads[*api.APIClient, []api.PolicyBinding]

// memberBindings reads the bindings without a policy (those of a group or a user), with a list
// that started after the call: deletions asking at about the same time share it
// (clients.JoinedReads). The answer is shared: read only.
func memberBindings(ctx context.Context, c *api.APIClient) ([]api.PolicyBinding, error) {
	return memberBindingReads.Read(ctx, c, func(ctx context.Context) ([]api.PolicyBinding, error) {
		return ListRequest(ctx, c.PoliciesAPI.PoliciesBindingsList(ctx).PolicyIsnull(true))
	})
}

// bindingsOf lists the bindings of a group or user. authentik cannot filter bindings by group
// or user (an unknown filter is ignored, so asking would return every binding); bindings of a
// group or user are those without a policy, which it can filter on.
func bindingsOf(ctx context.Context, c *api.APIClient, what string, match func(api.PolicyBinding) bool) ([]adoption.Dependent, error) {
	bs, err := memberBindings(ctx, c)
	if err != nil {
		return nil, errors.Wrapf(err, errListBindings, what)
	}
	var out []adoption.Dependent
	for _, b := range bs {
		if match(b) {
			out = append(out, binding(b, "of "+what+" to target "+b.Target))
		}
	}
	return out, nil
}

// binding describes a policy binding. Bindings carry no marker: each is judged by our
// PolicyBinding resource whose external name is its pk, and is in the way when there is none.
func binding(b api.PolicyBinding, where string) adoption.Dependent {
	who := "policy " + b.GetPolicy()
	switch {
	case b.PolicyObj.Get() != nil:
		who = "policy " + strconv.Quote(b.PolicyObj.Get().Name)
	case b.GroupObj.Get() != nil:
		who = "group " + strconv.Quote(b.GroupObj.Get().Name)
	case b.UserObj.Get() != nil:
		who = "user " + strconv.Quote(b.UserObj.Get().Username)
	}
	return adoption.Dependent{
		Description: adoption.Description{ID: b.Pk, Type: TypeBinding, Key: who + " " + where + ", order " + strconv.Itoa(int(b.Order)), Markerless: true},
		Kind:        v1alpha1.PolicyBindingGroupKind.String(), ExternalName: b.Pk,
	}
}

// TokensOfUser lists the user's API tokens and app passwords, which authentik deletes with
// the user. Each carries its marker in its description's last line, as our Token writes it:
// one whose Token is being deleted is waited for, any other is in the way. Verification and recovery tokens (one-time links authentik makes in its flows)
// are not listed: they act on the user alone and go with it.
func TokensOfUser(ctx context.Context, c *api.APIClient, pk int32, username string) ([]adoption.Dependent, error) {
	ts, err := ListAll(ctx, func(page int32) ([]api.Token, int32, error) {
		l, resp, err := c.CoreAPI.CoreTokensList(ctx).UserUsername(username).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListTokens, username)
	}
	var out []adoption.Dependent
	for _, t := range ts {
		if t.GetUser() != pk || (t.GetIntent() != api.INTENTENUM_API && t.GetIntent() != api.INTENTENUM_APP_PASSWORD) {
			continue
		}
		d := adoption.Dependent{
			Description: adoption.Description{ID: t.Identifier, Type: typeToken, Key: string(t.GetIntent()) + " token " + t.Identifier + " of user " + username},
			Kind:        v1alpha1.TokenGroupKind.String(), ExternalName: t.Identifier,
		}
		if _, m, found, err := provenance.ExtractFromText(t.GetDescription()); found && err == nil {
			d.Marker = &m
		}
		out = append(out, d)
	}
	return out, nil
}

// EntitlementsOf lists an application's entitlements, which authentik deletes with it.
func EntitlementsOf(ctx context.Context, c *api.APIClient, pbm, slug string) ([]adoption.Dependent, error) {
	es, err := ListAll(ctx, func(page int32) ([]api.ApplicationEntitlement, int32, error) {
		l, resp, err := c.CoreAPI.CoreApplicationEntitlementsList(ctx).App(pbm).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListEntitlements, slug)
	}
	out := make([]adoption.Dependent, 0, len(es))
	for _, e := range es {
		out = append(out, adoption.Dependent{Description: adoption.Description{
			ID: e.PbmUuid, Type: typeEntitlement, Key: e.Name + " of application " + slug, Markerless: true}})
	}
	return out, nil
}

// ChildGroups lists the groups whose parent is the group: authentik detaches them (they lose
// the roles and superuser status they inherit), which changes groups that may not be ours.
func ChildGroups(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	g, resp, err := c.CoreAPI.CoreGroupsRetrieve(ctx, pk).IncludeChildren(true).IncludeUsers(false).Execute()
	if err != nil {
		return nil, Wrap(err, resp, errReadChildren, name)
	}
	out := make([]adoption.Dependent, 0, len(g.ChildrenObj))
	for _, ch := range g.ChildrenObj {
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: ch.Pk, Type: TypeGroup, Key: ch.Name, Marker: AttributeMarker(ch.Attributes)},
			Kind:        v1alpha1.GroupGroupKind.String(), ExternalName: ch.Pk,
		})
	}
	return out, nil
}

// MembersOfGroup lists the group's memberships: deleting the group takes them off its
// members, which changes users that may not be ours. A membership is judged by its user: the
// user's marker, or our User resource with the user's pk as external name.
func MembersOfGroup(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	us, err := ListAll(ctx, func(page int32) ([]api.User, int32, error) {
		l, resp, err := c.CoreAPI.CoreUsersList(ctx).GroupsByPk([]string{pk}).IncludeGroups(false).IncludeRoles(false).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListMembers, name)
	}
	out := make([]adoption.Dependent, 0, len(us))
	for _, u := range us {
		id := strconv.Itoa(int(u.Pk))
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: id + "@" + pk, Type: typeMembership, Key: "user " + u.Username + " in group " + name,
				Marker: AttributeMarker(u.Attributes)},
			Kind: v1alpha1.UserGroupKind.String(), ExternalName: id,
		})
	}
	return out, nil
}

// AssignedApplication describes the application that uses a provider, as its provider or as
// a backchannel provider: deleting the provider detaches it, which changes the application.
// marker is the application's marker (nil when it carries none).
func AssignedApplication(slug string, marker *provenance.Marker) adoption.Dependent {
	return adoption.Dependent{
		Description: adoption.Description{ID: slug, Type: TypeApplication, Key: slug, Marker: marker},
		Kind:        v1alpha1.ApplicationGroupKind.String(), ExternalName: slug,
	}
}
