// Package project manages Keystone projects.
package project

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errNoDomain = "spec.forProvider.domainId of project %q is not known yet: set domainId, or wait for domainRef/domainSelector to resolve"
	errCreate   = "cannot create Keystone project %q"
	errUpdate   = "cannot update Keystone project %q (ID %s)"
	errMove     = "Keystone project %q (ID %s) has %s %s but spec.forProvider.%s is %s: Keystone cannot move a project, " +
		"so it was left untouched. Set spec.forProvider.%s back to %s, or create a new Project for the other place"
	errDelete    = "cannot delete Keystone project %q (ID %s)"
	errNonLeaf   = "cannot delete Keystone project %q (ID %s): it still has child projects %s, and Keystone deletes only projects without children. Delete the children first (their Project resources, or by hand); this resource retries until they are gone"
	errListChild = "cannot delete Keystone project %q (ID %s): Keystone refused (%s) and listing its child projects failed too: %s"

	typeName = "Keystone project"
)

// project is a Keystone project as the identity API returns it (keystone.Project, the shape the importer reads too).
type project = keystone.Project

var projects = keystone.Projects

func idOf(p project) string { return p.ID }

// inDomain is the scope a project is read in: the projects of its domain, listed once for all
// the resources that poll projects of that domain at about the same time.
func inDomain(domainID string) url.Values {
	return url.Values{"domain_id": {domainID}}
}

// mr is a Project of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ProjectParameters
	Observation() *v1alpha1.ProjectObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Project kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ProjectGroupVersionKind, Obj: &clusterv1alpha1.Project{}},
	{GVK: v1alpha1.ProjectGroupVersionKind, Obj: &v1alpha1.Project{}},
}

// Setup adds the controllers that reconcile Project managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Project CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, project]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of one domain's projects are shared
// by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, project] {
	shared := keystone.NewShared(projects, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, project] { return &external{sc: sc, projects: shared} }
}

// external drives Keystone projects for the adoption engine.
type external struct {
	sc       keystone.API
	projects keystone.Shared[project]
}

// Get reads the project. A read that must see Keystone as it is now (a deletion's, see
// clients.ReadAlone) asks for the project's subtree in the same request, which answers
// Dependents' question about children without a list of them.
func (e *external) Get(ctx context.Context, mg mr, id string) (project, error) {
	if clients.ReadsAlone(ctx) {
		return keystone.GetWithSubtree(ctx, e.sc, id)
	}
	return e.projects.Get(ctx, e.sc, inDomain(deref(mg.Parameters().DomainID)), id)
}

// Find looks a project up by name within its domain, Keystone's unique key for projects.
func (e *external) Find(ctx context.Context, mg mr) ([]project, error) {
	fp := mg.Parameters()
	domain := deref(fp.DomainID)
	if domain == "" {
		return keystone.Unresolved[project](mg, errors.Errorf(errNoDomain, fp.Name))
	}
	return e.projects.FindInDomain(ctx, e.sc, inDomain(domain), keystone.NameInDomain{Name: fp.Name, DomainID: domain}, keyOf)
}

func keyOf(p project) keystone.NameInDomain {
	return keystone.NameInDomain{Name: p.Name, DomainID: p.DomainID}
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// IsTwin tells Keystone's refusal of a second project with the same name (in its domain): the
// engine then creates without looking the name up first (adoption.TwinRefuser).
func (e *external) IsTwin(err error) bool { return keystone.IsTwin(err) }

func (e *external) Describe(p project) adoption.Description {
	return adoption.Description{ID: p.ID, Type: typeName, Key: p.Name, Marker: keystone.ParseMarker(p.Marker)}
}

func (e *external) Observe(mg mr, p project, prov identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.ProjectObservation{
		ID: p.ID, Name: p.Name, DomainID: p.DomainID, ParentID: p.ParentID,
		Description: p.Description, Enabled: p.Enabled, Tags: sortedTags(p.Tags), Provenance: prov,
	}
	fp := mg.Parameters()
	li := lateInitialize(fp, p)
	diff := cmp.Diff(desired(fp), observed(p, fp), cmpopts.EquateEmpty())
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if deref(fp.DomainID) == "" {
		return "", nil, errors.Errorf(errNoDomain, fp.Name)
	}
	body := desired(fp)
	body.Marker = m.Encode()
	p, err := e.projects.Create(ctx, e.sc, inDomain(body.DomainID), body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.Name)
	}
	lateInitialize(fp, p)
	return p.ID, nil, nil
}

// lateInitialize fills the spec's unset fields from the project, Keystone's defaults, and says
// whether it filled any. Create calls it with the create's answer, so that the update recording
// the create carries them instead of an update of their own (ADR 0006, part 5).
func lateInitialize(fp *v1alpha1.ProjectParameters, p project) bool {
	if fp.Enabled != nil {
		return false
	}
	fp.Enabled = &p.Enabled
	return true
}

// Update patches the mutable fields and the marker. Keystone cannot move a project to another
// domain or parent, so a difference there is reported and nothing is written.
func (e *external) Update(ctx context.Context, mg mr, p project, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if err := immovable(*mg.Parameters(), p); err != nil {
		return nil, err
	}
	body := desired(mg.Parameters())
	body.DomainID, body.ParentID = "", ""
	body.Marker = m.Encode()
	if err := e.projects.Update(ctx, e.sc, inDomain(p.DomainID), p.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, p.Name, p.ID)
	}
	return nil, nil
}

// LocalDependents names the RoleAssignment resources that manage the role assignments of the
// project with ID id: while any of them has its assignment, the deletion is held by it without
// asking Keystone (adoption.LocalCascader). The project is described from the spec.
func (e *external) LocalDependents(mg mr, id string) (adoption.Description, []adoption.LocalDependents) {
	return adoption.Description{ID: id, Type: typeName, Key: mg.Parameters().Name}, []adoption.LocalDependents{keystone.AssignmentsOn("project", id)}
}

// Dependents lists what Keystone would delete with the project: the role assignments on it,
// its child projects (Keystone refuses to delete a project that has any) and its unified
// limits. Role assignments come first: when a project is deleted together with what is in
// it, they are what it usually waits for (see adoption.Gather).
func (e *external) Dependents(ctx context.Context, _ mr, p project) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) {
			return keystone.AssignmentsDeletedWith(ctx, e.sc, "project", p.ID)
		},
		func() ([]adoption.Dependent, error) {
			if p.Leaf() {
				// The deletion's own read of the project found no child (see Get).
				return nil, nil
			}
			return keystone.ChildProjects(ctx, e.sc, p.ID)
		},
		func() ([]adoption.Dependent, error) { return keystone.LimitsOf(ctx, e.sc, p.ID) },
	)
}

// Delete deletes the project. Keystone refuses (403) to delete a project that has children;
// the error then names them, so that the user knows what blocks the deletion.
func (e *external) Delete(ctx context.Context, _ mr, p project) error {
	err := e.projects.Delete(ctx, e.sc, inDomain(p.DomainID), p.ID)
	switch {
	case err == nil || keystone.IsNotFound(err):
		return nil
	case gophercloud.ResponseCodeIs(err, http.StatusForbidden):
		children, lerr := projects.List(ctx, e.sc, url.Values{"parent_id": {p.ID}})
		if lerr != nil {
			return errors.Errorf(errListChild, p.Name, p.ID, keystone.Describe(err), keystone.Describe(lerr))
		}
		if len(children) == 0 {
			// Not a hierarchy problem (immutable project, policy): report Keystone's own words.
			return keystone.Wrap(err, errDelete, p.Name, p.ID)
		}
		return errors.Errorf(errNonLeaf, p.Name, p.ID, describeChildren(children))
	default:
		return keystone.Wrap(err, errDelete, p.Name, p.ID)
	}
}

// describeChildren lists child projects as `"name" (ID id)`, at most five of them.
func describeChildren(children []project) string {
	const most = 5
	parts := make([]string, 0, most+1)
	for i, c := range children {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(children)-most))
			break
		}
		parts = append(parts, fmt.Sprintf("%q (ID %s)", c.Name, c.ID))
	}
	return strings.Join(parts, ", ")
}

// immovable reports a difference in the fields Keystone never changes after creation.
func immovable(fp v1alpha1.ProjectParameters, p project) error {
	if d := deref(fp.DomainID); d != "" && d != p.DomainID {
		return errors.Errorf(errMove, p.Name, p.ID, "domain", p.DomainID, "domainId", d, "domainId", p.DomainID)
	}
	if pa := deref(fp.ParentID); pa != "" && pa != p.ParentID {
		return errors.Errorf(errMove, p.Name, p.ID, "parent", p.ParentID, "parentId", pa, "parentId", p.ParentID)
	}
	return nil
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Name        string    `json:"name"`
	DomainID    string    `json:"domain_id,omitempty"`
	ParentID    string    `json:"parent_id,omitempty"`
	Description *string   `json:"description,omitempty"`
	Enabled     *bool     `json:"enabled,omitempty"`
	Tags        *[]string `json:"tags,omitempty"`
	Marker      string    `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.ProjectParameters) managedFields {
	f := managedFields{Name: fp.Name, DomainID: deref(fp.DomainID), ParentID: deref(fp.ParentID), Description: fp.Description, Enabled: fp.Enabled}
	if fp.Tags != nil {
		t := sortedTags(*fp.Tags)
		f.Tags = &t
	}
	return f
}

// observed projects a project onto the fields the spec sets, so unset fields never differ.
// The domain is always compared: every project resource names one.
func observed(p project, fp *v1alpha1.ProjectParameters) managedFields {
	o := managedFields{Name: p.Name, DomainID: p.DomainID}
	if fp.ParentID != nil {
		o.ParentID = p.ParentID
	}
	if fp.Description != nil {
		o.Description = &p.Description
	}
	if fp.Enabled != nil {
		o.Enabled = &p.Enabled
	}
	if fp.Tags != nil {
		t := sortedTags(p.Tags)
		o.Tags = &t
	}
	return o
}

// sortedTags returns a sorted copy: Keystone's tags are a set.
func sortedTags(t []string) []string {
	s := append([]string{}, t...)
	slices.Sort(s)
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
