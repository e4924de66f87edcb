package keystone

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
)

// The JSON shapes of the Keystone objects that carry a marker, as the identity API returns
// them. The drivers manage them and the importer (internal/importer) lists them; both read the
// same shape, so a field one of them learns to read the other sees too.

// A Domain is a Keystone domain.
type Domain struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// A Project is a Keystone project. ParentID is the domain's ID for a top-level project.
type Project struct {
	ID          string   `json:"id,omitempty"`
	Name        string   `json:"name,omitempty"`
	DomainID    string   `json:"domain_id,omitempty"`
	ParentID    string   `json:"parent_id,omitempty"`
	Description string   `json:"description"`
	Enabled     bool     `json:"enabled"`
	Tags        []string `json:"tags"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`

	// Subtree is Keystone's answer to a read with ?subtree_as_ids (GetWithSubtree): the IDs of
	// the project's descendants, null for a leaf; absent (nil) when the read did not ask.
	Subtree json.RawMessage `json:"subtree,omitempty"`
}

// Leaf reports whether the read that gave p (GetWithSubtree) found it without children.
// False when that is not known.
func (p Project) Leaf() bool {
	s := strings.TrimSpace(string(p.Subtree))
	return s == "null" || s == "{}"
}

// GetWithSubtree reads a project with the IDs of its subtree in the same answer: for a
// deletion, one request tells both the project and whether it has children, which otherwise
// takes a list of its children.
func GetWithSubtree(ctx context.Context, sc API, id string) (Project, error) {
	var out struct {
		Project Project `json:"project"`
	}
	_, err := sc.Get(ctx, sc.ServiceURL("projects", id)+"?subtree_as_ids", &out, nil)
	return out.Project, err
}

// A Role is a Keystone role. DomainID is empty for global roles.
type Role struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	DomainID    string `json:"domain_id,omitempty"`
	Description string `json:"description"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// A Group is a Keystone group.
type Group struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	DomainID    string `json:"domain_id,omitempty"`
	Description string `json:"description"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// A User is a Keystone user. Keystone never returns its password.
type User struct {
	ID               string `json:"id,omitempty"`
	Name             string `json:"name,omitempty"`
	DomainID         string `json:"domain_id,omitempty"`
	Description      string `json:"description"`
	Enabled          bool   `json:"enabled"`
	Email            string `json:"email"`
	DefaultProjectID string `json:"default_project_id"`
	// Options are the security options set on the user; Keystone lists only those set.
	Options UserOptions `json:"options"`
	// PasswordExpiresAt is null while the password never expires.
	PasswordExpiresAt *string `json:"password_expires_at,omitempty"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// UserOptions are a user's security options (keystone/identity/backends/resource_options.py).
// Every field is a pointer: an option absent from Keystone's answer is not set, which is not the
// same as set to false, and a write leaves out the options it does not manage.
type UserOptions struct {
	IgnoreChangePasswordUponFirstUse *bool       `json:"ignore_change_password_upon_first_use,omitempty"`
	IgnorePasswordExpiry             *bool       `json:"ignore_password_expiry,omitempty"`
	IgnoreLockoutFailureAttempts     *bool       `json:"ignore_lockout_failure_attempts,omitempty"`
	LockPassword                     *bool       `json:"lock_password,omitempty"`
	IgnoreUserInactivity             *bool       `json:"ignore_user_inactivity,omitempty"`
	MultiFactorAuthEnabled           *bool       `json:"multi_factor_auth_enabled,omitempty"`
	MultiFactorAuthRules             *[][]string `json:"multi_factor_auth_rules,omitempty"`
}

// The collections of those objects.
var (
	Domains  = Collection[Domain]{Path: "domains", Singular: "domain", Plural: "domains"}
	Projects = Collection[Project]{Path: "projects", Singular: "project", Plural: "projects"}
	Roles    = Collection[Role]{Path: "roles", Singular: "role", Plural: "roles"}
	Groups   = Collection[Group]{Path: "groups", Singular: "group", Plural: "groups"}
	Users    = Collection[User]{Path: "users", Singular: "user", Plural: "users"}
)

// A RoleAssignment is one entry of GET /v3/role_assignments?include_names=true: the role, the
// user or group, and the project, domain or system it applies to, each by ID and name.
type RoleAssignment = roleAssignment

// An AssignmentRef is an ID and, with include_names, a name, as role assignments list them.
type AssignmentRef = ref

// ListAssignments lists role assignments with their names and Keystone's filters. Direct
// assignments only, as Assignments; a list Keystone truncated is an error (TruncatedError).
func ListAssignments(ctx context.Context, sc API, filter url.Values) ([]RoleAssignment, error) {
	q := url.Values{"include_names": {"true"}}
	for k, v := range filter {
		q[k] = v
	}
	return roleAssignments.List(ctx, sc, q)
}
