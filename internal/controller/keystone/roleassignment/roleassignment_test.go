package roleassignment

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

// fakeKeystone answers each request with the status its path is given (404 otherwise) and
// records "METHOD path" of every request.
type fakeKeystone struct {
	mu       sync.Mutex
	status   map[string]int
	requests []string
}

func (f *fakeKeystone) client(t *testing.T) *gophercloud.ServiceClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests = append(f.requests, r.Method+" "+r.URL.Path)
		code, ok := f.status[r.Method+" "+r.URL.Path]
		if !ok {
			code = http.StatusNotFound
		}
		if code >= 400 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_, _ = w.Write([]byte(`{"error":{"code":` + strconv.Itoa(code) + `,"message":"Keystone says no","title":"` + http.StatusText(code) + `"}}`))
			return
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(srv.Close)
	return &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}
}

func TestKeyRoundTrip(t *testing.T) {
	cases := map[string]struct {
		key     string
		want    assignment
		wantErr bool
	}{
		"ProjectUser": {
			key:  "project/p1/user/u1/role/r1",
			want: assignment{Target: "project", TargetID: "p1", Actor: "user", ActorID: "u1", RoleID: "r1"},
		},
		"DomainGroupInherited": {
			key:  "domain/default/group/g1/role/r1/inherited",
			want: assignment{Target: "domain", TargetID: "default", Actor: "group", ActorID: "g1", RoleID: "r1", Inherited: true},
		},
		"TooShort":          {key: "project/p1/user/u1/role", wantErr: true},
		"UnknownSuffix":     {key: "project/p1/user/u1/role/r1/effective", wantErr: true},
		"UnknownTarget":     {key: "system/all/user/u1/role/r1", wantErr: true},
		"UnknownActor":      {key: "project/p1/service/u1/role/r1", wantErr: true},
		"NoRoleSegment":     {key: "project/p1/user/u1/roles/r1", wantErr: true},
		"EmptyID":           {key: "project//user/u1/role/r1", wantErr: true},
		"ExtraSegment":      {key: "project/p1/user/u1/role/r1/inherited/x", wantErr: true},
		"KeystoneIDAlone":   {key: "4b1e0c7f9fe2", wantErr: true},
		"EmptyExternalName": {key: "", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseKey(tc.key)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("parseKey(%q) = %+v, want an error", tc.key, got)
				}
				if !strings.Contains(err.Error(), "<project|domain>/<ID>/<user|group>/<ID>/role/<ID>") {
					t.Errorf("error %q does not show the expected form", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseKey(%q): -want +got:\n%s", tc.key, diff)
			}
			if got.Key() != tc.key {
				t.Errorf("Key() = %q, want %q", got.Key(), tc.key)
			}
		})
	}
}

func TestURL(t *testing.T) {
	sc := &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{}, Endpoint: "http://keystone/v3/"}
	cases := map[string]struct {
		a    assignment
		want string
	}{
		"Direct": {
			a:    assignment{Target: "project", TargetID: "p1", Actor: "user", ActorID: "u1", RoleID: "r1"},
			want: "http://keystone/v3/projects/p1/users/u1/roles/r1",
		},
		"Inherited": {
			a:    assignment{Target: "domain", TargetID: "d1", Actor: "group", ActorID: "g1", RoleID: "r1", Inherited: true},
			want: "http://keystone/v3/OS-INHERIT/domains/d1/groups/g1/roles/r1/inherited_to_projects",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.a.url(sc)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
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

func TestObserve(t *testing.T) {
	observed := assignment{Target: "project", TargetID: "p", Actor: "user", ActorID: "u", RoleID: "r"}
	cases := map[string]struct {
		fp         v1alpha1.RoleAssignmentParameters
		a          assignment
		wantStatus v1alpha1.RoleAssignmentObservation
		wantUp     bool
	}{
		"UpToDate": {
			fp:         v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")},
			a:          observed,
			wantStatus: v1alpha1.RoleAssignmentObservation{ID: "project/p/user/u/role/r", RoleID: "r", UserID: "u", ProjectID: "p", Provenance: identityv1alpha1.Owned},
			wantUp:     true,
		},
		"GroupDomainInherited": {
			fp: v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d"), Inherited: ptr(true)},
			a:  assignment{Target: "domain", TargetID: "d", Actor: "group", ActorID: "g", RoleID: "r", Inherited: true},
			wantStatus: v1alpha1.RoleAssignmentObservation{ID: "domain/d/group/g/role/r/inherited", RoleID: "r", GroupID: "g", DomainID: "d",
				Inherited: true, Provenance: identityv1alpha1.Owned},
			wantUp: true,
		},
		"SpecNamesAnotherRole": {
			fp:         v1alpha1.RoleAssignmentParameters{RoleID: ptr("other"), UserID: ptr("u"), ProjectID: ptr("p")},
			a:          observed,
			wantStatus: v1alpha1.RoleAssignmentObservation{ID: "project/p/user/u/role/r", RoleID: "r", UserID: "u", ProjectID: "p", Provenance: identityv1alpha1.Owned},
			wantUp:     false,
		},
		"SpecNowInherited": {
			fp:         v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p"), Inherited: ptr(true)},
			a:          observed,
			wantStatus: v1alpha1.RoleAssignmentObservation{ID: "project/p/user/u/role/r", RoleID: "r", UserID: "u", ProjectID: "p", Provenance: identityv1alpha1.Owned},
			wantUp:     false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newRA(tc.fp)
			e := &external{}
			obs := e.Observe(mg, tc.a, identityv1alpha1.Owned)
			if diff := cmp.Diff(tc.wantStatus, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider: -want +got:\n%s", diff)
			}
			if obs.UpToDate != tc.wantUp {
				t.Errorf("UpToDate = %v, want %v (diff %q)", obs.UpToDate, tc.wantUp, obs.Diff)
			}
			if obs.LateInitialized {
				t.Errorf("LateInitialized = true; an assignment has nothing to late-initialize")
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	a := assignment{Target: "project", TargetID: "p", Actor: "user", ActorID: "u", RoleID: "r"}
	got := (&external{}).Describe(a)
	want := struct {
		ID, Type, Key string
		Markerless    bool
		NoMarker      bool
	}{"project/p/user/u/role/r", typeName, "project/p/user/u/role/r", true, true}
	if diff := cmp.Diff(want, struct {
		ID, Type, Key string
		Markerless    bool
		NoMarker      bool
	}{got.ID, got.Type, got.Key, got.Markerless, got.Marker == nil}); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestRequests(t *testing.T) {
	const direct = "/v3/projects/p/users/u/roles/r"
	const inherited = "/v3/OS-INHERIT/domains/d/groups/g/roles/r/inherited_to_projects"
	userOnProject := v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")}
	groupOnDomain := v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d"), Inherited: ptr(true)}
	a := assignment{Target: "project", TargetID: "p", Actor: "user", ActorID: "u", RoleID: "r"}
	m := provenance.Marker{Installation: "i", Resource: "RoleAssignment.keystone.identity.crossplane.io/x", Origin: provenance.OriginCreated}

	type result struct {
		Value    any
		Err      string
		NotFound bool
		Requests []string
	}
	cases := map[string]struct {
		status map[string]int
		fp     v1alpha1.RoleAssignmentParameters
		call   func(e *external, mg *v1alpha1.RoleAssignment) (any, error)
		want   result
	}{
		"GetExists": {
			status: map[string]int{"HEAD " + direct: 204},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return e.Get(context.Background(), mg, "project/p/user/u/role/r")
			},
			want: result{Value: a, Requests: []string{"HEAD " + direct}},
		},
		"GetGone": {
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				_, err := e.Get(context.Background(), mg, "project/p/user/u/role/r")
				return nil, err
			},
			want: result{Err: "404", NotFound: true, Requests: []string{"HEAD " + direct}},
		},
		"GetInherited": {
			status: map[string]int{"HEAD " + inherited: 204},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return e.Get(context.Background(), mg, "domain/d/group/g/role/r/inherited")
			},
			want: result{Value: assignment{Target: "domain", TargetID: "d", Actor: "group", ActorID: "g", RoleID: "r", Inherited: true}, Requests: []string{"HEAD " + inherited}},
		},
		"GetBadExternalName": {
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				_, err := e.Get(context.Background(), mg, "4b1e0c7f")
				return nil, err
			},
			want: result{Err: `external name "4b1e0c7f" is not a role assignment key`},
		},
		"GetServerError": {
			status: map[string]int{"HEAD " + direct: 500},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				_, err := e.Get(context.Background(), mg, "project/p/user/u/role/r")
				return nil, err
			},
			want: result{Err: "cannot check Keystone role assignment project/p/user/u/role/r", Requests: []string{"HEAD " + direct}},
		},
		"FindNone": {
			fp:   userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) { return e.Find(context.Background(), mg) },
			want: result{Value: []assignment(nil), Requests: []string{"HEAD " + direct}},
		},
		"FindExisting": {
			status: map[string]int{"HEAD " + direct: 204},
			fp:     userOnProject,
			call:   func(e *external, mg *v1alpha1.RoleAssignment) (any, error) { return e.Find(context.Background(), mg) },
			want:   result{Value: []assignment{a}, Requests: []string{"HEAD " + direct}},
		},
		"FindUnresolved": {
			fp: v1alpha1.RoleAssignmentParameters{RoleRef: &xpv2.Reference{Name: "r"}, UserID: ptr("u"), ProjectID: ptr("p")},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return e.Find(context.Background(), mg)
			},
			want: result{Value: []assignment(nil), Err: "the role of the role assignment is not known"},
		},
		"FindUnresolvedWhileDeleting": {
			fp: v1alpha1.RoleAssignmentParameters{RoleRef: &xpv2.Reference{Name: "r"}, UserID: ptr("u"), ProjectID: ptr("p")},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
				return e.Find(context.Background(), mg)
			},
			want: result{Value: []assignment(nil)},
		},
		"CreateDirect": {
			status: map[string]int{"PUT " + direct: 204},
			fp:     userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				id, _, err := e.Create(context.Background(), mg, m)
				return id, err
			},
			want: result{Value: "project/p/user/u/role/r", Requests: []string{"HEAD " + direct, "PUT " + direct}},
		},
		"CreateInherited": {
			status: map[string]int{"PUT " + inherited: 204},
			fp:     groupOnDomain,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				id, _, err := e.Create(context.Background(), mg, m)
				return id, err
			},
			want: result{Value: "domain/d/group/g/role/r/inherited", Requests: []string{"HEAD " + inherited, "PUT " + inherited}},
		},
		"CreateRefused": {
			fp: userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				id, _, err := e.Create(context.Background(), mg, m)
				return id, err
			},
			want: result{Value: "", Err: "cannot assign Keystone role (project/p/user/u/role/r)", Requests: []string{"HEAD " + direct, "PUT " + direct}},
		},
		"CreateFindsItAssignedMeanwhile": {
			// Keystone's PUT would answer 204 all the same: only the HEAD before it can tell.
			status: map[string]int{"HEAD " + direct: 204, "PUT " + direct: 204},
			fp:     userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				id, _, err := e.Create(context.Background(), mg, m)
				return id, err
			},
			want: result{Value: "", Err: `Keystone role assignment "project/p/user/u/role/r" (ID project/p/user/u/role/r) already exists`, Requests: []string{"HEAD " + direct}},
		},
		"CreateCannotCheck": {
			status: map[string]int{"HEAD " + direct: 500, "PUT " + direct: 204},
			fp:     userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				id, _, err := e.Create(context.Background(), mg, m)
				return id, err
			},
			want: result{Value: "", Err: "cannot check Keystone role assignment project/p/user/u/role/r", Requests: []string{"HEAD " + direct}},
		},
		"UpdateSameAssignmentWritesNothing": {
			fp: userOnProject,
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				_, err := e.Update(context.Background(), mg, a, m)
				return nil, err
			},
			want: result{},
		},
		"UpdateChangedSpecRefused": {
			fp: v1alpha1.RoleAssignmentParameters{RoleID: ptr("r2"), UserID: ptr("u"), ProjectID: ptr("p")},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				_, err := e.Update(context.Background(), mg, a, m)
				return nil, err
			},
			want: result{Err: "spec.forProvider now names the role assignment project/p/user/u/role/r2, but this resource manages project/p/user/u/role/r"},
		},
		"DeleteUnassignsTheObservedAssignment": {
			status: map[string]int{"DELETE " + direct: 204},
			// The spec changed meanwhile: Delete still removes only what the resource owns.
			fp: v1alpha1.RoleAssignmentParameters{RoleID: ptr("r2"), UserID: ptr("u"), ProjectID: ptr("p")},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return nil, e.Delete(context.Background(), mg, a)
			},
			want: result{Requests: []string{"DELETE " + direct}},
		},
		"DeleteAlreadyGone": {
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return nil, e.Delete(context.Background(), mg, a)
			},
			want: result{Requests: []string{"DELETE " + direct}},
		},
		"DeleteRefused": {
			status: map[string]int{"DELETE " + direct: 403},
			call: func(e *external, mg *v1alpha1.RoleAssignment) (any, error) {
				return nil, e.Delete(context.Background(), mg, a)
			},
			want: result{Err: "cannot unassign Keystone role (project/p/user/u/role/r)", Requests: []string{"DELETE " + direct}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeKeystone{status: tc.status}
			e := &external{sc: f.client(t)}
			v, err := tc.call(e, newRA(tc.fp))
			got := result{Value: v, Requests: f.requests}
			if err != nil {
				got.Err, got.NotFound = err.Error(), e.IsNotFound(err)
				if !strings.Contains(got.Err, tc.want.Err) || tc.want.Err == "" {
					t.Errorf("error %q, want one containing %q", got.Err, tc.want.Err)
				}
				got.Err = tc.want.Err
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// An assignment made by someone else between the engine's read (Observe) and its write (Create)
// is refused, not claimed: the create fails with a conflict, no PUT is sent, and the next
// reconcile reports AdoptionRequired.
func TestAssignmentMadeBetweenObserveAndCreate(t *testing.T) {
	const direct = "/v3/projects/p/users/u/roles/r"
	f := &fakeKeystone{status: map[string]int{"PUT " + direct: 204}}
	newExternal := func() *adoption.External[mr, assignment] {
		return adoption.NewExternal[mr, assignment](&external{sc: f.client(t)}, adoption.Config{
			GroupKind: "RoleAssignment.keystone.identity.crossplane.io", Installation: "i",
		})
	}
	mg := newRA(v1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")})
	e := newExternal()
	obs, err := e.Observe(context.Background(), mg)
	if err != nil || obs.ResourceExists {
		t.Fatalf("Observe() before the assignment exists: exists %v, err %v", obs.ResourceExists, err)
	}

	f.mu.Lock()
	f.status["HEAD "+direct] = http.StatusNoContent
	f.mu.Unlock()
	created := time.Now()
	meta.SetExternalCreatePending(mg, created)
	_, err = e.Create(context.Background(), mg)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Create() of an assignment made meanwhile: %v, want a ConflictError", err)
	}
	type state struct {
		ExternalName string
		Marker       string
		Requests     []string
	}
	want := state{Requests: []string{"HEAD " + direct, "HEAD " + direct}}
	got := state{meta.GetExternalName(mg), mg.GetAnnotations()[adoption.AnnotationMarker], f.requests}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after Create(): -want +got:\n%s", diff)
	}

	// The reconciler records the failed create; the next reconcile finds an assignment that is
	// not this resource's.
	meta.SetExternalCreateFailed(mg, created.Add(time.Second))
	if _, err := newExternal().Observe(context.Background(), mg); !errors.As(err, &ce) {
		t.Fatalf("next Observe(): %v, want a ConflictError", err)
	}
	if r := mg.GetCondition(xpv2.TypeReady).Reason; r != adoption.ReasonAdoptionRequired {
		t.Errorf("Ready reason %q, want AdoptionRequired", r)
	}
}
