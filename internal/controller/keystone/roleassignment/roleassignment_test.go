package roleassignment

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact/facttest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func TestKeyRoundTrip(t *testing.T) {
	const form = "<project|domain>/<ID>/<user|group>/<ID>/role/<ID>"
	facttest.Keys(t, parseKey, map[string]facttest.Key[assignment]{
		"ProjectUser": {
			Key:  "project/p1/user/u1/role/r1",
			Want: assignment{Target: "project", TargetID: "p1", Actor: "user", ActorID: "u1", RoleID: "r1"},
		},
		"DomainGroupInherited": {
			Key:  "domain/default/group/g1/role/r1/inherited",
			Want: assignment{Target: "domain", TargetID: "default", Actor: "group", ActorID: "g1", RoleID: "r1", Inherited: true},
		},
		"TooShort":          {Key: "project/p1/user/u1/role", Err: form},
		"UnknownSuffix":     {Key: "project/p1/user/u1/role/r1/effective", Err: form},
		"UnknownTarget":     {Key: "system/all/user/u1/role/r1", Err: form},
		"UnknownActor":      {Key: "project/p1/service/u1/role/r1", Err: form},
		"NoRoleSegment":     {Key: "project/p1/user/u1/roles/r1", Err: form},
		"EmptyID":           {Key: "project//user/u1/role/r1", Err: form},
		"ExtraSegment":      {Key: "project/p1/user/u1/role/r1/inherited/x", Err: form},
		"KeystoneIDAlone":   {Key: "4b1e0c7f9fe2", Err: `external name "4b1e0c7f9fe2" is not a role assignment key: want ` + form + ", optionally followed by /inherited"},
		"EmptyExternalName": {Key: "", Err: form},
	})
}

func newRA(fp v1alpha1.RoleAssignmentParameters) *v1alpha1.RoleAssignment {
	return &v1alpha1.RoleAssignment{Spec: v1alpha1.RoleAssignmentSpec{ForProvider: fp}}
}

func TestDesired(t *testing.T) {
	ref := &xpv2.Reference{Name: "x"}
	cases := map[string]struct {
		fp      v1alpha1.RoleAssignmentParameters
		want    assignment
		wantErr string
	}{
		"UserOnProject": {
			fp:   v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")},
			want: assignment{Target: "project", TargetID: "p", Actor: "user", ActorID: "u", RoleID: "r"},
		},
		"GroupOnDomainInherited": {
			fp:   v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d"), Inherited: ptr(true)},
			want: assignment{Target: "domain", TargetID: "d", Actor: "group", ActorID: "g", RoleID: "r", Inherited: true},
		},
		"InheritedFalse": {
			fp:   v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d"), Inherited: ptr(false)},
			want: assignment{Target: "domain", TargetID: "d", Actor: "group", ActorID: "g", RoleID: "r"},
		},
		"UnresolvedRole": {
			fp:      v1alpha1.RoleAssignmentParameters{RoleRef: ref, UserID: ptr("u"), ProjectID: ptr("p")},
			wantErr: "the role of the role assignment is not known: set spec.forProvider.roleId",
		},
		"UnresolvedUser": {
			fp:      v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserRef: ref, ProjectID: ptr("p")},
			wantErr: "the user of the role assignment is not known: set spec.forProvider.userId",
		},
		"UnresolvedProject": {
			fp:      v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectSelector: &xpv2.Selector{}},
			wantErr: "the project of the role assignment is not known: set spec.forProvider.projectId",
		},
		"UnresolvedDomain": {
			fp:      v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainRef: ref},
			wantErr: "the domain of the role assignment is not known: set spec.forProvider.domainId",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := desired(newRA(tc.fp))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("desired() error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestURL(t *testing.T) {
	cases := map[string]struct {
		a    assignment
		want string
	}{
		"Direct": {
			a:    assignment{Target: "project", TargetID: "p1", Actor: "user", ActorID: "u1", RoleID: "r1"},
			want: "projects/p1/users/u1/roles/r1",
		},
		"Inherited": {
			a:    assignment{Target: "domain", TargetID: "d1", Actor: "group", ActorID: "g1", RoleID: "r1", Inherited: true},
			want: "OS-INHERIT/domains/d1/groups/g1/roles/r1/inherited_to_projects",
		},
		"Escaped": {
			a:    assignment{Target: "domain", TargetID: "default", Actor: "user", ActorID: "alice smith", RoleID: "r1"},
			want: "domains/default/users/alice%20smith/roles/r1",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(keystonetest.Endpoint+tc.want, assignmentURL(&keystonetest.API{}, tc.a)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// The assignment's own: its URLs, its record and its messages (the driver's behaviour is
// tested once, in package fact).
func TestCalls(t *testing.T) {
	const direct = "projects/p/users/u/roles/r"
	const inherited = "OS-INHERIT/domains/d/groups/g/roles/r/inherited_to_projects"
	userOnProject := v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")}
	groupOnDomain := v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d"), Inherited: ptr(true)}
	a := assignment{Target: "project", TargetID: "p", Actor: "user", ActorID: "u", RoleID: "r"}
	inh := assignment{Target: "domain", TargetID: "d", Actor: "group", ActorID: "g", RoleID: "r", Inherited: true}
	mk := provenance.Marker{Installation: "i", Resource: "RoleAssignment.keystone.identity.crossplane.io/x", Origin: provenance.OriginCreated}
	status := func(mg mr) v1alpha1.RoleAssignmentObservation { return *mg.Observation() }
	type observed = facttest.Observed[v1alpha1.RoleAssignmentObservation]
	// Without shared reads: each check is its own HEAD (TestSharedList covers the list).
	facttest.Run(t, func(sc keystone.API) adoption.Driver[mr, assignment] { return fact.New(kind, sc, nil) }, map[string]facttest.Call[mr, assignment]{
		"GetCannotCheck": {
			Answers: map[string]keystonetest.Answer{"HEAD " + direct: keystonetest.ServerError},
			Op:      facttest.Get[mr, assignment](newRA(userOnProject), "project/p/user/u/role/r"), Want: a,
			Err: "cannot check Keystone role assignment project/p/user/u/role/r", Calls: []string{"HEAD " + direct},
		},
		"ObserveUserOnProject": {
			Op: facttest.Observe[mr](newRA(userOnProject), a, status),
			Want: observed{Status: v1alpha1.RoleAssignmentObservation{ID: "project/p/user/u/role/r", RoleID: "r", UserID: "u", ProjectID: "p",
				Provenance: identityv1alpha1.Owned}, UpToDate: true},
		},
		"ObserveGroupOnDomainInherited": {
			Op: facttest.Observe[mr](newRA(groupOnDomain), inh, status),
			Want: observed{Status: v1alpha1.RoleAssignmentObservation{ID: "domain/d/group/g/role/r/inherited", RoleID: "r", GroupID: "g", DomainID: "d",
				Inherited: true, Provenance: identityv1alpha1.Owned}, UpToDate: true},
		},
		"ObserveSpecNowInherited": {
			Op: facttest.Observe[mr](newRA(v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p"), Inherited: ptr(true)}), a, status),
			Want: observed{Status: v1alpha1.RoleAssignmentObservation{ID: "project/p/user/u/role/r", RoleID: "r", UserID: "u", ProjectID: "p",
				Provenance: identityv1alpha1.Owned}},
		},
		"CreateDirect": {
			Answers: map[string]keystonetest.Answer{"HEAD " + direct: keystonetest.NotFound, "PUT " + direct: {Status: 204}},
			Op:      keystonetest.Create[mr, assignment](newRA(userOnProject), mk), Want: "project/p/user/u/role/r",
			Calls: []string{"HEAD " + direct, "PUT " + direct},
		},
		"CreateInherited": {
			Answers: map[string]keystonetest.Answer{"HEAD " + inherited: keystonetest.NotFound, "PUT " + inherited: {Status: 204}},
			Op:      keystonetest.Create[mr, assignment](newRA(groupOnDomain), mk), Want: "domain/d/group/g/role/r/inherited",
			Calls: []string{"HEAD " + inherited, "PUT " + inherited},
		},
		"CreateRefused": {
			Answers: map[string]keystonetest.Answer{"HEAD " + direct: keystonetest.NotFound, "PUT " + direct: keystonetest.Forbidden},
			Op:      keystonetest.Create[mr, assignment](newRA(userOnProject), mk), Want: "",
			Err: "cannot assign Keystone role (project/p/user/u/role/r)", Calls: []string{"HEAD " + direct, "PUT " + direct},
		},
		"CreateAssignedMeanwhile": {
			Answers: map[string]keystonetest.Answer{"HEAD " + direct: {Status: 204}},
			Op:      keystonetest.Create[mr, assignment](newRA(userOnProject), mk), Want: "",
			Err: `Keystone role assignment "project/p/user/u/role/r" (ID project/p/user/u/role/r) already exists`, Calls: []string{"HEAD " + direct},
		},
		"CreateInvalidStoredSpec": {
			// Stored before the CRD's rules: refused before any call.
			Op:   keystonetest.Create[mr, assignment](newRA(v1alpha1.RoleAssignmentParameters{RoleID: ptr("r/x"), UserID: ptr("u"), ProjectID: ptr("p")}), mk),
			Want: "", Err: "spec.forProvider.roleId",
		},
		"UpdateChangedSpecRefused": {
			Op: keystonetest.Update[mr, assignment](newRA(v1alpha1.RoleAssignmentParameters{RoleID: ptr("r2"), UserID: ptr("u"), ProjectID: ptr("p")}), a, mk),
			Err: "spec.forProvider now names the role assignment project/p/user/u/role/r2, but this resource manages project/p/user/u/role/r. " +
				"An assignment cannot be changed: restore the spec, or create another RoleAssignment and delete this one",
		},
		"DeleteInherited": {
			Answers: map[string]keystonetest.Answer{"DELETE " + inherited: {Status: 204}},
			Op:      keystonetest.Delete[mr, assignment](newRA(groupOnDomain), inh), Calls: []string{"DELETE " + inherited},
		},
		"DeleteRefused": {
			Answers: map[string]keystonetest.Answer{"DELETE " + direct: keystonetest.Forbidden},
			Op:      keystonetest.Delete[mr, assignment](newRA(userOnProject), a),
			Err:     "cannot unassign Keystone role (project/p/user/u/role/r)", Calls: []string{"DELETE " + direct},
		},
	})
}

// An assignment is read in the list of its role's assignments; a system assignment of the role
// has no key and is left out. A fresh list answers Find too.
func TestSharedList(t *testing.T) {
	api := &keystonetest.API{Answers: map[string]keystonetest.Answer{
		"GET role_assignments?role.id=r": {Body: `{"role_assignments": [` + strings.Join([]string{
			`{"role": {"id": "r"}, "group": {"id": "g"}, "scope": {"project": {"id": "p"}}}`,
			`{"role": {"id": "r"}, "user": {"id": "u"}, "scope": {"domain": {"id": "d"}, "OS-INHERIT:inherited_to": "projects"}}`,
			`{"role": {"id": "r"}, "user": {"id": "admin"}, "scope": {"system": {"all": true}}}`,
		}, ",") + `]}`},
	}}
	a := assignment{Target: "project", TargetID: "p", Actor: "group", ActorID: "g", RoleID: "r"}
	if diff := cmp.Diff(keystonetest.Endpoint+"role_assignments?role.id=r", kind.Shared.URL(api, a)); diff != "" {
		t.Errorf("list URL: -want +got:\n%s", diff)
	}
	got, err := kind.Shared.List(context.Background(), api, a)
	if err != nil {
		t.Fatal(err)
	}
	want := []assignment{a, {Target: "domain", TargetID: "d", Actor: "user", ActorID: "u", RoleID: "r", Inherited: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list: -want +got:\n%s", diff)
	}
	if !kind.Shared.Find {
		t.Errorf("a fresh list does not answer Find; today it does")
	}
}
