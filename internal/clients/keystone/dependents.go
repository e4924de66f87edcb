package keystone

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The lists below answer "what would Keystone delete with this object?" (see
// docs/adr/0001-provenance-markers.md, "What a delete takes with it"). Each returns the
// objects as adoption.Dependents, each with its marker or, for markerless objects, the kind
// and external name our resource for it would have. They run only when a delete is about to
// happen, and filter on the server wherever Keystone can.
//
// A list that Keystone truncated (list_limit) still proves that something is in the way: its
// entries are returned with a last entry that says more exist, never an error.

// namedObject is the part of a project, user, group or role that a dependent needs.
type namedObject struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Marker json.RawMessage `json:"crossplane_provenance,omitempty"`
}

// marker reads the marker attribute; anything but a readable marker string proves nothing.
func (o namedObject) marker() *provenance.Marker {
	var s string
	if json.Unmarshal(o.Marker, &s) != nil {
		return nil
	}
	return ParseMarker(s)
}

var (
	dependentProjects = Collection[namedObject]{Path: "projects", Singular: "project", Plural: "projects"}
	dependentUsers    = Collection[namedObject]{Path: "users", Singular: "user", Plural: "users"}
	dependentGroups   = Collection[namedObject]{Path: "groups", Singular: "group", Plural: "groups"}
)

const (
	typeProject    = "Keystone project"
	typeUser       = "Keystone user"
	typeGroup      = "Keystone group"
	typeIdP        = "Keystone identity provider"
	typeProtocol   = "Keystone federation protocol"
	typeConfig     = "Keystone domain configuration"
	typeAssignment = "Keystone role assignment"
	typeMembership = "Keystone group membership"
	typeAppCred    = "Keystone application credential"
	typeInference  = "Keystone implied-role rule"
	typeLimit      = "Keystone limit"
)

// ProjectsInDomain lists every project of a domain, nested ones included (they share its
// domain_id).
func ProjectsInDomain(ctx context.Context, sc API, domainID string) ([]adoption.Dependent, error) {
	return namedDependents(ctx, sc, dependentProjects, url.Values{"domain_id": {domainID}}, typeProject, v1alpha1.ProjectGroupKind.String())
}

// ChildProjects lists the projects whose parent is the given project.
func ChildProjects(ctx context.Context, sc API, projectID string) ([]adoption.Dependent, error) {
	return namedDependents(ctx, sc, dependentProjects, url.Values{"parent_id": {projectID}}, typeProject, v1alpha1.ProjectGroupKind.String())
}

// UsersInDomain lists the users of a domain that a delete would take with it (for a domain
// with an LDAP configuration, the directory's users: callers check the configuration first).
func UsersInDomain(ctx context.Context, sc API, domainID string) ([]adoption.Dependent, error) {
	return userDependents(ctx, sc, url.Values{"domain_id": {domainID}})
}

// GroupsInDomain lists the groups of a domain.
func GroupsInDomain(ctx context.Context, sc API, domainID string) ([]adoption.Dependent, error) {
	return namedDependents(ctx, sc, dependentGroups, url.Values{"domain_id": {domainID}}, typeGroup, v1alpha1.GroupGroupKind.String())
}

// FederatedUsers lists what deleting an identity provider takes along with the federated
// identities of its users.
func FederatedUsers(ctx context.Context, sc API, idpID string) ([]adoption.Dependent, error) {
	return userDependents(ctx, sc, url.Values{"idp_id": {idpID}})
}

// userDependents lists users as dependents, except Keystone's shadow records of users that a
// directory or an identity provider holds: Keystone makes those by itself at a login, and
// deleting one loses no account, only what was granted to it. For a shadow record, the role
// assignments it holds are the dependents instead.
func userDependents(ctx context.Context, sc API, q url.Values) ([]adoption.Dependent, error) {
	users, err := namedDependents(ctx, sc, dependentUsers, q, typeUser, v1alpha1.UserGroupKind.String())
	if err != nil {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(users))
	for _, u := range users {
		if !IsShadowUserID(u.ID) {
			out = append(out, u)
			continue
		}
		grants, err := AssignmentsDeletedWith(ctx, sc, "user", u.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, grants...)
	}
	return out, nil
}

// IsShadowUserID reports whether a user ID is one Keystone mapped from a directory or an
// identity provider rather than one of its own users: Keystone gives its own users 32-digit
// UUIDs, and mapped users the 64-digit SHA-256 of their domain and local ID
// (keystone/identity/id_generators/sha256.py). Mapped users never carry a marker: only SQL
// users can hold extra attributes.
func IsShadowUserID(id string) bool {
	if len(id) != 64 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func namedDependents(ctx context.Context, sc API, c Collection[namedObject], q url.Values, typ, kind string) ([]adoption.Dependent, error) {
	objs, err := c.List(ctx, sc, q)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(objs)+1)
	for _, o := range objs {
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: o.ID, Type: typ, Key: o.Name, Marker: o.marker()},
			Kind:        kind, ExternalName: o.ID,
		})
	}
	return withTruncation(out, err, typ), nil
}

// withTruncation appends an entry standing for what a truncated list did not show.
func withTruncation(ds []adoption.Dependent, err error, typ string) []adoption.Dependent {
	if !IsTruncated(err) {
		return ds
	}
	return append(ds, adoption.Dependent{Description: adoption.Description{
		ID: "unknown", Type: typ, Key: "more, not listed: Keystone truncated the list at its list_limit"}})
}

// DomainConfigOf returns the domain's configuration, if it has one.
func DomainConfigOf(ctx context.Context, sc API, domainID string) ([]adoption.Dependent, error) {
	_, err := GetDomainConfig(ctx, sc, domainID)
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []adoption.Dependent{{
		Description: adoption.Description{ID: domainID, Type: typeConfig, Key: "of domain " + domainID, Markerless: true},
		Kind:        v1alpha1.DomainConfigGroupKind.String(), ExternalName: domainID,
	}}, nil
}

// IdentityProvidersInDomain lists the identity providers whose users live in the domain;
// Keystone deletes them with it. Keystone cannot filter identity providers by domain.
func IdentityProvidersInDomain(ctx context.Context, sc API, domainID string) ([]adoption.Dependent, error) {
	idps, err := ListIdentityProviders(ctx, sc, nil)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	var out []adoption.Dependent
	for _, idp := range idps {
		if idp.DomainID != domainID {
			continue
		}
		d := adoption.Dependent{Description: adoption.Description{ID: idp.ID, Type: typeIdP, Key: idp.ID},
			Kind: v1alpha1.IdentityProviderGroupKind.String(), ExternalName: idp.ID}
		if _, m, found, err := provenance.ExtractFromText(idp.Description); found && err == nil {
			d.Marker = &m
		}
		out = append(out, d)
	}
	return withTruncation(out, err, typeIdP), nil
}

// ProtocolsOf lists an identity provider's protocols.
func ProtocolsOf(ctx context.Context, sc API, idpID string) ([]adoption.Dependent, error) {
	ps, err := ListProtocols(ctx, sc, idpID)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(ps))
	for _, p := range ps {
		ext := idpID + "/" + p.ID
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: ext, Type: typeProtocol, Key: p.ID, Markerless: true},
			Kind:        v1alpha1.ProtocolGroupKind.String(), ExternalName: ext,
		})
	}
	return withTruncation(out, err, typeProtocol), nil
}

// roleAssignment is one entry of GET /v3/role_assignments?include_names.
type roleAssignment struct {
	Role  ref `json:"role"`
	User  ref `json:"user"`
	Group ref `json:"group"`
	Scope struct {
		Project   ref             `json:"project"`
		Domain    ref             `json:"domain"`
		System    json.RawMessage `json:"system"`
		Inherited string          `json:"OS-INHERIT:inherited_to"`
	} `json:"scope"`
}

type ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

var roleAssignments = Collection[roleAssignment]{Path: "role_assignments", Plural: "role_assignments"}

// Assignments lists role assignments with Keystone's filters, for example role.id,
// group.id, user.id, scope.project.id or scope.domain.id. Direct assignments only: those are
// the rows a delete removes.
func Assignments(ctx context.Context, sc API, filter url.Values) ([]adoption.Dependent, error) {
	q := url.Values{"include_names": {"true"}}
	for k, v := range filter {
		q[k] = v
	}
	as, err := roleAssignments.List(ctx, sc, q)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(as))
	for _, a := range as {
		out = append(out, a.dependent())
	}
	return withTruncation(out, err, typeAssignment), nil
}

// AssignmentKeys lists the keys (external names) of the direct project and domain role
// assignments that match Keystone's filters; system assignments have no key and are left out.
// A list cut short is an error (IsTruncated): a read must not take a missing row for a
// missing assignment.
func AssignmentKeys(ctx context.Context, sc API, filter url.Values) ([]string, error) {
	as, err := roleAssignments.List(ctx, sc, filter)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(as))
	for _, a := range as {
		if d := a.dependent(); d.ExternalName != "" {
			keys = append(keys, d.ExternalName)
		}
	}
	return keys, nil
}

func (a roleAssignment) dependent() adoption.Dependent {
	actor, actorRef := "user", a.User
	if a.Group.ID != "" {
		actor, actorRef = "group", a.Group
	}
	target, targetRef := "project", a.Scope.Project
	switch {
	case a.Scope.Domain.ID != "":
		target, targetRef = "domain", a.Scope.Domain
	case len(a.Scope.System) > 0:
		target, targetRef = "system", ref{ID: "all", Name: "all"}
	}
	inherited := a.Scope.Inherited == "projects"
	key := "role " + nameOr(a.Role) + " to " + actor + " " + nameOr(actorRef) + " on " + target + " " + nameOr(targetRef)
	if inherited {
		key += ", inherited to its projects"
	}
	d := adoption.Dependent{Description: adoption.Description{Type: typeAssignment, Key: key, Markerless: true}}
	d.ID = AssignmentKey(target, targetRef.ID, actor, actorRef.ID, a.Role.ID, inherited)
	if target != "system" {
		d.Kind, d.ExternalName = v1alpha1.RoleAssignmentGroupKind.String(), d.ID
	}
	return d
}

// AssignmentKey is a role assignment's external name:
// <project|domain>/<target ID>/<user|group>/<actor ID>/role/<role ID>[/inherited].
func AssignmentKey(target, targetID, actor, actorID, roleID string, inherited bool) string {
	k := strings.Join([]string{target, targetID, actor, actorID, "role", roleID}, "/")
	if inherited {
		k += "/inherited"
	}
	return k
}

func nameOr(r ref) string {
	if r.Name != "" {
		return r.Name
	}
	return r.ID
}

// GroupsOfUser lists the memberships of a user; a user's deletion removes them.
func GroupsOfUser(ctx context.Context, sc API, userID, userName string) ([]adoption.Dependent, error) {
	gs, err := Collection[namedObject]{Path: "users/" + url.PathEscape(userID) + "/groups", Plural: "groups"}.List(ctx, sc, nil)
	return memberships(gs, err, func(g namedObject) (string, string) {
		return MembershipKey(g.ID, userID), "user " + userName + " in group " + g.Name
	})
}

// MembersOfGroup lists the memberships in a group; a group's deletion removes them.
func MembersOfGroup(ctx context.Context, sc API, groupID, groupName string) ([]adoption.Dependent, error) {
	us, err := Collection[namedObject]{Path: "groups/" + url.PathEscape(groupID) + "/users", Plural: "users"}.List(ctx, sc, nil)
	return memberships(us, err, func(u namedObject) (string, string) {
		return MembershipKey(groupID, u.ID), "user " + u.Name + " in group " + groupName
	})
}

// memberships describes each membership by its key (<group ID>/<user ID>), which is also the
// external name of the GroupMembership that manages it: a membership has no marker, so its
// owner is found by kind and external name.
func memberships(objs []namedObject, err error, describe func(namedObject) (id, key string)) ([]adoption.Dependent, error) {
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(objs))
	for _, o := range objs {
		id, key := describe(o)
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: id, Type: typeMembership, Key: key, Markerless: true},
			Kind:        v1alpha1.GroupMembershipGroupKind.String(), ExternalName: id,
		})
	}
	return withTruncation(out, err, typeMembership), nil
}

// appCred is the part of an application credential that a dependent needs.
type appCred struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ApplicationCredentialsOf lists a user's application credentials; Keystone deletes them with
// the user.
func ApplicationCredentialsOf(ctx context.Context, sc API, userID string) ([]adoption.Dependent, error) {
	cs, err := Collection[appCred]{Path: "users/" + url.PathEscape(userID) + "/application_credentials", Plural: "application_credentials"}.List(ctx, sc, nil)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(cs))
	for _, c := range cs {
		// One the ApplicationCredential kind created carries its marker in the description's
		// last line; one it adopted carries none (Keystone cannot change it), and is found by
		// the external name of the resource that adopted it.
		d := adoption.Dependent{Description: adoption.Description{ID: c.ID, Type: typeAppCred, Key: c.Name}}
		if _, m, found, err := provenance.ExtractFromText(c.Description); found && err == nil {
			d.Marker = &m
		} else {
			d.Markerless, d.Kind, d.ExternalName = true, v1alpha1.ApplicationCredentialGroupKind.String(), c.ID
		}
		out = append(out, d)
	}
	return withTruncation(out, err, typeAppCred), nil
}

// LimitsOf lists the unified limits set for a project; Keystone deletes them with it. A limit
// carries its marker in the description's last line (the Limit kind's), which names the
// resource that manages it.
//
// Keystone accepts a limit only under a registered limit, and refuses to delete a registered
// limit that limits use: with no registered limit there is no limit anywhere. That question
// is the same for every project, so the deletions asking it at once share one list
// (clients.JoinedReads, each answered by a read started after it asked); only when there are
// registered limits is the project's own list read.
func LimitsOf(ctx context.Context, sc API, projectID string) ([]adoption.Dependent, error) {
	if exist, err := anyRegisteredLimit(ctx, sc); err != nil || !exist {
		return nil, err
	}
	ls, err := Limits.List(ctx, sc, url.Values{"project_id": {projectID}})
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(ls))
	for _, l := range ls {
		d := adoption.Description{ID: l.ID, Type: typeLimit, Key: l.ResourceName}
		if l.Description != nil {
			if _, m, found, err := provenance.ExtractFromText(*l.Description); found && err == nil {
				d.Marker = &m
			}
		}
		out = append(out, adoption.Dependent{Description: d})
	}
	return withTruncation(out, err, typeLimit), nil
}

// inference is one entry of GET /v3/role_inferences.
type inference struct {
	PriorRole ref   `json:"prior_role"`
	Implies   []ref `json:"implies"`
}

// ImpliedRoleRules lists the implied-role rules a role takes part in, as the prior role or as
// the implied one: Keystone deletes both kinds with the role.
func ImpliedRoleRules(ctx context.Context, sc API, roleID string) ([]adoption.Dependent, error) {
	rules, err := RoleInferences(ctx, sc)
	if err != nil {
		return nil, errors.Wrap(err, "cannot list Keystone's implied-role rules")
	}
	var ds []adoption.Dependent
	for _, r := range rules {
		if r.PriorID != roleID && r.ImpliedID != roleID {
			continue
		}
		// The key is the external name of the ImpliedRole that manages the rule.
		key := ImpliedRoleKey(r.PriorID, r.ImpliedID)
		ds = append(ds, adoption.Dependent{
			Description: adoption.Description{ID: key, Type: typeInference,
				Key: nameOr(ref{ID: r.PriorID, Name: r.PriorName}) + " implies " + nameOr(ref{ID: r.ImpliedID, Name: r.ImpliedName}), Markerless: true},
			Kind: v1alpha1.ImpliedRoleGroupKind.String(), ExternalName: key,
		})
	}
	return ds, nil
}

// registeredLimitReads joins the deletions' questions whether a client sees any registered
// limit; a client's credentials decide what it sees.
var registeredLimitReads clients.JoinedReads[API, bool]

// anyRegisteredLimit reports whether Keystone holds a registered limit, read after the call.
func anyRegisteredLimit(ctx context.Context, sc API) (bool, error) {
	read := func(ctx context.Context) (bool, error) {
		rls, err := RegisteredLimits.List(ctx, sc, nil)
		if IsTruncated(err) {
			return true, nil
		}
		if err != nil {
			return false, errors.Wrap(err, "cannot list Keystone's registered limits")
		}
		return len(rls) > 0, nil
	}
	if !Joinable(sc) {
		return read(ctx)
	}
	return registeredLimitReads.Read(ctx, sc, read)
}

// AssignmentsOn names the RoleAssignment resources whose assignments hang on the object of
// word (project, domain, group, user or role) with ID id: a deletion of that object waits for
// those being deleted before it asks Keystone (adoption.LocalCascader).
func AssignmentsOn(word, id string) adoption.LocalDependents {
	return adoption.LocalDependents{Kind: v1alpha1.RoleAssignmentGroupKind.String(), Part: word + "/" + id, Type: typeAssignment}
}

// ProjectsIn names the Project resources whose projects live in the domain with ID domainID
// (indexed under domain/<ID>, see managedkind.Homed): a deletion of the domain, which would take
// them with it, waits for those being deleted before it asks Keystone.
func ProjectsIn(domainID string) adoption.LocalDependents {
	return adoption.LocalDependents{Kind: v1alpha1.ProjectGroupKind.String(), Part: "domain/" + domainID, Type: typeProject}
}
