package user

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const password = "s3cret-Pa55word"

func ptr[T any](v T) *T { return &v }

var secretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "pw"}, Key: "password"}

// fp is the fingerprint of the Secret the fake kube client serves.
func fp(rv string) *v1alpha1.PasswordFingerprint {
	return &v1alpha1.PasswordFingerprint{Namespace: "ns", Name: "pw", Key: "password", UID: "uid-1", ResourceVersion: rv}
}

func newUser(mutate ...func(*v1alpha1.UserParameters)) *v1alpha1.User {
	mg := &v1alpha1.User{Spec: v1alpha1.UserSpec{ForProvider: v1alpha1.UserParameters{Name: "alice", DomainID: ptr("d1")}}}
	for _, m := range mutate {
		m(&mg.Spec.ForProvider)
	}
	return mg
}

func TestObserve(t *testing.T) {
	u := user{User: keystone.User{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true, Email: "a@example.com", DefaultProjectID: "p1"}}
	withSecret := func(s *secretState) user { c := u; c.Secret = s; return c }
	cases := map[string]struct {
		mg         *v1alpha1.User
		sent       *v1alpha1.PasswordFingerprint
		onCreate   string
		u          user
		wantUp     bool
		wantLI     bool
		wantStatus v1alpha1.UserObservation
	}{
		"OnlyNameAndDomainSetIsUpToDate": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled = ptr(true) }),
			u:      u,
			wantUp: true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"EnabledIsLateInitialized": {
			mg:     newUser(),
			u:      u,
			wantUp: true, wantLI: true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"AllFieldsMatch": {
			mg: newUser(func(p *v1alpha1.UserParameters) {
				p.Enabled, p.Description, p.Email, p.DefaultProjectID = ptr(true), ptr("desc"), ptr("a@example.com"), ptr("p1")
			}),
			u:      u,
			wantUp: true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"EmailDiffers": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.Email = ptr(true), ptr("b@example.com") }),
			u:      u,
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"DefaultProjectDiffers": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.DefaultProjectID = ptr(true), ptr("p2") }),
			u:      u,
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"DisabledInKeystone": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled = ptr(true) }),
			u:      func() user { c := u; c.Enabled = false; return c }(),
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc",
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"PasswordNeverSent": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			u:      withSecret(&secretState{Fingerprint: fp("7")}),
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"PasswordSentFromThisSecretVersion": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			sent:   fp("7"),
			u:      withSecret(&secretState{Fingerprint: fp("7")}),
			wantUp: true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", PasswordFingerprint: fp("7"), Provenance: identityv1alpha1.Owned},
		},
		"SecretChangedSinceSent": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			sent:   fp("7"),
			u:      withSecret(&secretState{Fingerprint: fp("8")}),
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", PasswordFingerprint: fp("7"), Provenance: identityv1alpha1.Owned},
		},
		"SecretUnreadable": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			sent:   fp("7"),
			u:      withSecret(&secretState{Err: "cannot read the password Secret ns/pw"}),
			wantUp: false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", PasswordFingerprint: fp("7"), Provenance: identityv1alpha1.Owned},
		},
		"PasswordSentOnCreate": {
			mg:       newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			onCreate: `{"namespace":"ns","name":"pw","key":"password","uid":"uid-1","resourceVersion":"7"}`,
			u:        withSecret(&secretState{Fingerprint: fp("7")}),
			wantUp:   true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", PasswordFingerprint: fp("7"), Provenance: identityv1alpha1.Owned},
		},
		"StatusSupersedesTheCreateAnnotation": {
			mg:       newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			onCreate: `{"namespace":"ns","name":"pw","key":"password","uid":"uid-1","resourceVersion":"6"}`,
			sent:     fp("7"),
			u:        withSecret(&secretState{Fingerprint: fp("7")}),
			wantUp:   true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", PasswordFingerprint: fp("7"), Provenance: identityv1alpha1.Owned},
		},
		"UnreadableCreateAnnotationMeansSendAgain": {
			mg:       newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.PasswordSecretRef = ptr(true), secretRef }),
			onCreate: `not json`,
			u:        withSecret(&secretState{Fingerprint: fp("7")}),
			wantUp:   false,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
		"PasswordNoLongerManaged": {
			mg:     newUser(func(p *v1alpha1.UserParameters) { p.Enabled = ptr(true) }),
			sent:   fp("7"),
			u:      u,
			wantUp: true,
			wantStatus: v1alpha1.UserObservation{ID: "u1", Name: "alice", DomainID: "d1", Description: "desc", Enabled: true,
				Email: "a@example.com", DefaultProjectID: "p1", Provenance: identityv1alpha1.Owned},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.mg.Status.AtProvider.PasswordFingerprint = tc.sent
			if tc.onCreate != "" {
				tc.mg.SetAnnotations(map[string]string{AnnotationPasswordSentOnCreate: tc.onCreate})
			}
			obs := (&external{}).Observe(tc.mg, tc.u, identityv1alpha1.Owned)
			if obs.UpToDate != tc.wantUp || obs.LateInitialized != tc.wantLI {
				t.Errorf("UpToDate, LateInitialized = %v, %v; want %v, %v (diff %s)", obs.UpToDate, obs.LateInitialized, tc.wantUp, tc.wantLI, obs.Diff)
			}
			if diff := cmp.Diff(tc.wantStatus, tc.mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider: -want +got:\n%s", diff)
			}
		})
	}
}

// fakeKeystone serves canned answers by "METHOD path" and records every request with its body.
type fakeKeystone struct {
	mu       sync.Mutex
	answers  map[string]answer
	requests []request
}

type answer struct {
	code int
	body string
}

type request struct {
	Line string
	Body map[string]any
}

func (f *fakeKeystone) client(t *testing.T) *gophercloud.ServiceClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		line := r.Method + " " + r.URL.Path
		if r.URL.RawQuery != "" {
			line += "?" + r.URL.RawQuery
		}
		req := request{Line: line}
		if b, _ := io.ReadAll(r.Body); len(b) > 0 {
			if err := json.Unmarshal(b, &req.Body); err != nil {
				t.Errorf("request body of %s is not JSON: %v", line, err)
			}
		}
		f.requests = append(f.requests, req)
		a, ok := f.answers[line]
		if !ok {
			a = answer{code: 404, body: `{"error":{"code":404,"message":"Could not find it.","title":"Not Found"}}`}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.code)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(srv.Close)
	return &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}
}

func forbidden() answer {
	return answer{code: 403, body: `{"error":{"code":403,"message":"You are not authorized to perform the requested action.","title":"Forbidden"}}`}
}

// kubeWith returns a fake kube client serving the given Secrets.
func kubeWith(t *testing.T, secrets ...*corev1.Secret) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	objs := make([]client.Object, 0, len(secrets))
	for _, sec := range secrets {
		objs = append(objs, sec)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
}

func pwSecret(data map[string][]byte) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pw", UID: "uid-1", ResourceVersion: "7"}, Data: data}
}

var marker = provenance.Marker{Installation: "inst", Resource: "User.keystone.identity.crossplane.io/alice", Origin: provenance.OriginCreated}

func TestRequests(t *testing.T) {
	ks := func(s string) string { return "/v3/" + s }
	userJSON := `{"id":"u1","name":"alice","domain_id":"d1","enabled":true,"email":"a@example.com","crossplane_provenance":"` + marker.Encode() + `"}`
	userBody := `{"user":` + userJSON + `}`
	good := pwSecret(map[string][]byte{"password": []byte(password)})
	ldap := map[string]answer{"GET " + ks("domains/d1/config/identity/driver"): {code: 200, body: `{"config":{"driver":"ldap"}}`}}
	observed := user{User: keystone.User{ID: "u1", Name: "alice", DomainID: "d1", Enabled: true, Email: "a@example.com", Marker: keystone.MarkerAttr(marker.Encode())}}
	withSecret := func(s *secretState) user { c := observed; c.Secret = s; return c }
	withPassword := func(p *v1alpha1.UserParameters) { p.PasswordSecretRef, p.Enabled = secretRef, ptr(true) }
	create := func(e *external, mg *v1alpha1.User) (any, error) {
		id, _, err := e.Create(context.Background(), mg, marker)
		return id, err
	}
	update := func(u user) func(e *external, mg *v1alpha1.User) (any, error) {
		return func(e *external, mg *v1alpha1.User) (any, error) {
			_, err := e.Update(context.Background(), mg, u, marker)
			return nil, err
		}
	}
	patched := func(extra map[string]any) request {
		b := map[string]any{"name": "alice", "domain_id": "d1", "enabled": true, "crossplane_provenance": marker.Encode()}
		for k, v := range extra {
			b[k] = v
		}
		return request{Line: "PATCH " + ks("users/u1"), Body: map[string]any{"user": b}}
	}

	type result struct {
		Value    any
		Err      string
		Requests []request
		Sent     *v1alpha1.PasswordFingerprint
		OnCreate string
	}
	cases := map[string]struct {
		answers  map[string]answer
		secrets  []*corev1.Secret
		mg       *v1alpha1.User
		sent     *v1alpha1.PasswordFingerprint
		onCreate string
		call     func(e *external, mg *v1alpha1.User) (any, error)
		want     result
	}{
		"GetReadsTheUserAndTheSecretVersion": {
			answers: map[string]answer{"GET " + ks("users/u1"): {code: 200, body: userBody}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			call:    func(e *external, mg *v1alpha1.User) (any, error) { return e.Get(context.Background(), mg, "u1") },
			want:    result{Value: withSecret(&secretState{Fingerprint: fp("7")}), Requests: []request{{Line: "GET " + ks("users/u1")}}},
		},
		"GetWithoutPasswordReadsNoSecret": {
			answers: map[string]answer{"GET " + ks("users/u1"): {code: 200, body: userBody}},
			mg:      newUser(),
			call:    func(e *external, mg *v1alpha1.User) (any, error) { return e.Get(context.Background(), mg, "u1") },
			want:    result{Value: observed, Requests: []request{{Line: "GET " + ks("users/u1")}}},
		},
		"GetSecretWithoutTheKey": {
			answers: map[string]answer{"GET " + ks("users/u1"): {code: 200, body: userBody}},
			secrets: []*corev1.Secret{pwSecret(map[string][]byte{"other": []byte("x")})},
			mg:      newUser(withPassword),
			call:    func(e *external, mg *v1alpha1.User) (any, error) { return e.Get(context.Background(), mg, "u1") },
			want: result{
				Value:    withSecret(&secretState{Err: `the password Secret ns/pw has no key "password", or its value is empty`}),
				Requests: []request{{Line: "GET " + ks("users/u1")}},
			},
		},
		"GetGone": {
			mg: newUser(),
			call: func(e *external, mg *v1alpha1.User) (any, error) {
				_, err := e.Get(context.Background(), mg, "u1")
				if !e.IsNotFound(err) {
					t.Errorf("IsNotFound(%v) = false", err)
				}
				return nil, err
			},
			want: result{Err: "404", Requests: []request{{Line: "GET " + ks("users/u1")}}},
		},
		"FindByNameInItsDomain": {
			answers: map[string]answer{"GET " + ks("users") + "?domain_id=d1&name=alice": {code: 200, body: `{"users":[` + userJSON + `],"links":{}}`}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			call:    func(e *external, mg *v1alpha1.User) (any, error) { return e.Find(context.Background(), mg) },
			want: result{
				Value:    []user{withSecret(&secretState{Fingerprint: fp("7")})},
				Requests: []request{{Line: "GET " + ks("users") + "?domain_id=d1&name=alice"}},
			},
		},
		"FindNothing": {
			answers: map[string]answer{"GET " + ks("users") + "?domain_id=d1&name=alice": {code: 200, body: `{"users":[],"links":{}}`}},
			mg:      newUser(),
			call:    func(e *external, mg *v1alpha1.User) (any, error) { return e.Find(context.Background(), mg) },
			want:    result{Value: []user(nil), Requests: []request{{Line: "GET " + ks("users") + "?domain_id=d1&name=alice"}}},
		},
		"FindWithoutDomain": {
			mg:   newUser(func(p *v1alpha1.UserParameters) { p.DomainID, p.DomainRef = nil, &xpv2.Reference{Name: "d"} }),
			call: func(e *external, mg *v1alpha1.User) (any, error) { return e.Find(context.Background(), mg) },
			want: result{Value: []user(nil), Err: errNoDomain},
		},
		"FindWithoutDomainWhileDeleting": {
			mg: newUser(func(p *v1alpha1.UserParameters) { p.DomainID, p.DomainRef = nil, &xpv2.Reference{Name: "d"} }),
			call: func(e *external, mg *v1alpha1.User) (any, error) {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
				return e.Find(context.Background(), mg)
			},
			want: result{Value: []user(nil)},
		},
		"CreateSendsFieldsMarkerAndPassword": {
			answers: map[string]answer{"POST " + ks("users"): {code: 201, body: userBody}},
			secrets: []*corev1.Secret{good},
			mg: newUser(withPassword, func(p *v1alpha1.UserParameters) {
				p.Email, p.DefaultProjectID, p.Description = ptr("a@example.com"), ptr("p1"), ptr("")
			}),
			call: create,
			want: result{Value: "u1", Sent: fp("7"),
				OnCreate: `{"namespace":"ns","name":"pw","key":"password","uid":"uid-1","resourceVersion":"7"}`,
				Requests: []request{{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{
					"name": "alice", "domain_id": "d1", "email": "a@example.com", "enabled": true, "default_project_id": "p1",
					"description": "", "crossplane_provenance": marker.Encode(), "password": password,
				}}}}},
		},
		"CreateWithoutPassword": {
			answers: map[string]answer{"POST " + ks("users"): {code: 201, body: userBody}},
			mg:      newUser(),
			call:    create,
			want: result{Value: "u1", Requests: []request{{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{
				"name": "alice", "domain_id": "d1", "crossplane_provenance": marker.Encode(),
			}}}}},
		},
		"CreateWaitsForTheSecret": {
			mg:   newUser(withPassword),
			call: create,
			want: result{Value: "", Err: `cannot create Keystone user "alice" in domain d1: cannot read the password Secret ns/pw`},
		},
		"CreateInLDAPDomain": {
			answers: mergeAnswers(ldap, map[string]answer{"POST " + ks("users"): forbidden()}),
			mg:      newUser(),
			call:    create,
			want: result{Value: "", Err: `cannot create Keystone user "alice" in domain d1: domain d1 is backed by LDAP, whose users are read-only in Keystone`,
				Requests: []request{
					{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{"name": "alice", "domain_id": "d1", "crossplane_provenance": marker.Encode()}}},
					{Line: "GET " + ks("domains/d1/config/identity/driver")},
				}},
		},
		"CreateForbiddenInSQLDomain": {
			answers: map[string]answer{"POST " + ks("users"): forbidden()},
			mg:      newUser(),
			call:    create,
			want: result{Value: "", Err: "Keystone answered Forbidden (403): You are not authorized to perform the requested action. The ProviderConfig's credentials may lack the admin role, or the domain's identity backend may be read-only",
				Requests: []request{
					{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{"name": "alice", "domain_id": "d1", "crossplane_provenance": marker.Encode()}}},
					{Line: "GET " + ks("domains/d1/config/identity/driver")},
				}},
		},
		"CreateConflict": {
			answers: map[string]answer{"POST " + ks("users"): {code: 409, body: `{"error":{"code":409,"message":"Conflict occurred attempting to store user - Duplicate entry.","title":"Conflict"}}`}},
			mg:      newUser(),
			call:    create,
			want: result{Value: "", Err: "Duplicate entry",
				Requests: []request{{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{"name": "alice", "domain_id": "d1", "crossplane_provenance": marker.Encode()}}}}},
		},
		"CreateRejectedPasswordIsNotRecorded": {
			answers: map[string]answer{"POST " + ks("users"): {code: 400, body: `{"error":{"code":400,"message":"Password validation error: The password does not meet the requirements.","title":"Bad Request"}}`}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			call:    create,
			want: result{Value: "", Err: "Password validation error: The password does not meet the requirements.",
				Requests: []request{{Line: "POST " + ks("users"), Body: map[string]any{"user": map[string]any{
					"name": "alice", "domain_id": "d1", "enabled": true, "crossplane_provenance": marker.Encode(), "password": password,
				}}}}},
		},
		"UpdateSendsThePasswordNeverSent": {
			answers: map[string]answer{"PATCH " + ks("users/u1"): {code: 200, body: userBody}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			call:    update(withSecret(&secretState{Fingerprint: fp("7")})),
			want:    result{Sent: fp("7"), Requests: []request{patched(map[string]any{"password": password})}},
		},
		"UpdateSendsThePasswordWhenTheSecretChanged": {
			answers: map[string]answer{"PATCH " + ks("users/u1"): {code: 200, body: userBody}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			sent:    fp("6"),
			call:    update(withSecret(&secretState{Fingerprint: fp("7")})),
			want:    result{Sent: fp("7"), Requests: []request{patched(map[string]any{"password": password})}},
		},
		"UpdateLeavesThePasswordSentOnCreateAlone": {
			answers:  map[string]answer{"PATCH " + ks("users/u1"): {code: 200, body: userBody}},
			secrets:  []*corev1.Secret{good},
			mg:       newUser(withPassword, func(p *v1alpha1.UserParameters) { p.Email = ptr("new@example.com") }),
			onCreate: `{"namespace":"ns","name":"pw","key":"password","uid":"uid-1","resourceVersion":"7"}`,
			call:     update(withSecret(&secretState{Fingerprint: fp("7")})),
			want: result{OnCreate: `{"namespace":"ns","name":"pw","key":"password","uid":"uid-1","resourceVersion":"7"}`,
				Requests: []request{patched(map[string]any{"email": "new@example.com"})}},
		},
		"UpdateLeavesAnUnchangedPasswordAlone": {
			answers: map[string]answer{"PATCH " + ks("users/u1"): {code: 200, body: userBody}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword, func(p *v1alpha1.UserParameters) { p.Email = ptr("new@example.com") }),
			sent:    fp("7"),
			call:    update(withSecret(&secretState{Fingerprint: fp("7")})),
			want:    result{Sent: fp("7"), Requests: []request{patched(map[string]any{"email": "new@example.com"})}},
		},
		"UpdateWithoutPasswordManagement": {
			answers: map[string]answer{"PATCH " + ks("users/u1"): {code: 200, body: userBody}},
			mg:      newUser(func(p *v1alpha1.UserParameters) { p.Enabled = ptr(true) }),
			call:    update(observed),
			want:    result{Requests: []request{patched(nil)}},
		},
		"UpdateFailsWhenTheSecretIsGone": {
			mg:   newUser(withPassword),
			sent: fp("6"),
			call: update(withSecret(&secretState{Err: "cannot read the password Secret ns/pw"})),
			want: result{Sent: fp("6"), Err: `cannot update Keystone user "alice" (ID u1): cannot read the password Secret ns/pw`},
		},
		"UpdateRefusesToMoveTheUser": {
			mg:   newUser(func(p *v1alpha1.UserParameters) { p.DomainID = ptr("d2") }),
			call: update(observed),
			want: result{Err: `Keystone user "alice" (ID u1) belongs to domain d1, but spec.forProvider.domainId is d2`},
		},
		"UpdateRejectedPasswordIsNotRecorded": {
			answers: map[string]answer{"PATCH " + ks("users/u1"): {code: 400, body: `{"error":{"code":400,"message":"Password validation error: The password does not meet the requirements.","title":"Bad Request"}}`}},
			secrets: []*corev1.Secret{good},
			mg:      newUser(withPassword),
			sent:    fp("6"),
			call:    update(withSecret(&secretState{Fingerprint: fp("7")})),
			want: result{Sent: fp("6"), Err: "Password validation error: The password does not meet the requirements.",
				Requests: []request{patched(map[string]any{"password": password})}},
		},
		"UpdateInLDAPDomain": {
			answers: mergeAnswers(ldap, map[string]answer{"PATCH " + ks("users/u1"): forbidden()}),
			mg:      newUser(func(p *v1alpha1.UserParameters) { p.Enabled = ptr(true) }),
			call:    update(observed),
			want: result{Err: `cannot update Keystone user "alice" (ID u1): domain d1 is backed by LDAP`,
				Requests: []request{patched(nil), {Line: "GET " + ks("domains/d1/config/identity/driver")}}},
		},
		"Delete": {
			answers: map[string]answer{"DELETE " + ks("users/u1"): {code: 204}},
			mg:      newUser(),
			call: func(e *external, mg *v1alpha1.User) (any, error) {
				return nil, e.Delete(context.Background(), mg, observed)
			},
			want: result{Requests: []request{{Line: "DELETE " + ks("users/u1")}}},
		},
		"DeleteAlreadyGone": {
			mg: newUser(),
			call: func(e *external, mg *v1alpha1.User) (any, error) {
				return nil, e.Delete(context.Background(), mg, observed)
			},
			want: result{Requests: []request{{Line: "DELETE " + ks("users/u1")}}},
		},
		"DeleteInLDAPDomain": {
			answers: mergeAnswers(ldap, map[string]answer{"DELETE " + ks("users/u1"): forbidden()}),
			mg:      newUser(),
			call: func(e *external, mg *v1alpha1.User) (any, error) {
				return nil, e.Delete(context.Background(), mg, observed)
			},
			want: result{Err: `cannot delete Keystone user "alice" (ID u1): domain d1 is backed by LDAP`,
				Requests: []request{{Line: "DELETE " + ks("users/u1")}, {Line: "GET " + ks("domains/d1/config/identity/driver")}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeKeystone{answers: tc.answers}
			e := sharedDriver(clients.SharedReadOptions{}, kubeWith(t, tc.secrets...))(f.client(t)).(*external)
			tc.mg.Status.AtProvider.PasswordFingerprint = tc.sent
			if tc.onCreate != "" {
				tc.mg.SetAnnotations(map[string]string{AnnotationPasswordSentOnCreate: tc.onCreate})
			}
			v, err := tc.call(e, tc.mg)
			got := result{Value: v, Requests: f.requests, Sent: tc.mg.Status.AtProvider.PasswordFingerprint,
				OnCreate: tc.mg.GetAnnotations()[AnnotationPasswordSentOnCreate]}
			if err != nil {
				if strings.Contains(err.Error(), password) {
					t.Fatalf("the error reveals the password: %v", err)
				}
				if tc.want.Err == "" || !strings.Contains(err.Error(), tc.want.Err) {
					t.Errorf("error %q, want one containing %q", err, tc.want.Err)
				}
				got.Err = tc.want.Err
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func mergeAnswers(ms ...map[string]answer) map[string]answer {
	out := map[string]answer{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// A namespaced User reads its password Secret in its own namespace, and never another one: a
// selector naming another namespace (which admission refuses) fails the create before anything
// is sent, naming the User, the Secret and the fix.
func TestNamespacedPasswordSecret(t *testing.T) {
	userBody := `{"user":{"id":"u1","name":"alice","domain_id":"d1"}}`
	own := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pw", UID: "uid-a", ResourceVersion: "3"},
		Data: map[string][]byte{"password": []byte(password)}}
	cases := map[string]struct {
		namespace    string
		wantErr      string
		wantRequests int
		wantSent     *v1alpha1.PasswordFingerprint
	}{
		"OwnNamespace": {
			wantRequests: 1,
			wantSent:     &v1alpha1.PasswordFingerprint{Namespace: "team-a", Name: "pw", Key: "password", UID: "uid-a", ResourceVersion: "3"},
		},
		"AnotherNamespace": {
			namespace: "ns",
			wantErr: `cannot create Keystone user "alice" in domain d1: cannot read the password Secret ns/pw: User team-a/alice reads Secrets of its own namespace only, ` +
				`but names Secret ns/pw: put the Secret in namespace team-a and leave out the selector's namespace: a namespaced User reads Secrets in its own namespace`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeKeystone{answers: map[string]answer{"POST /v3/users": {code: 201, body: userBody}}}
			// The other namespace holds a Secret of the same name: it must not be read.
			e := sharedDriver(clients.SharedReadOptions{}, kubeWith(t, own, pwSecret(map[string][]byte{"password": []byte("other")})))(f.client(t)).(*external)
			mg := &nsv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "alice"}}
			mg.Spec.ForProvider = v1alpha1.UserParameters{Name: "alice", DomainID: ptr("d1"),
				PasswordSecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "pw", Namespace: tc.namespace}, Key: "password"}}
			_, _, err := e.Create(context.Background(), mg, marker)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.wantErr, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if len(f.requests) != tc.wantRequests {
				t.Fatalf("requests: %v, want %d", f.requests, tc.wantRequests)
			}
			if tc.wantRequests > 0 && f.requests[0].Body["user"].(map[string]any)["password"] != password {
				t.Errorf("the create did not send the password of the User's own namespace")
			}
			if diff := cmp.Diff(tc.wantSent, mg.Status.AtProvider.PasswordFingerprint); diff != "" {
				t.Errorf("fingerprint sent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCreateLateInitializes: a create fills the spec's unset enabled from Keystone's answer,
// so that the update recording the create carries it; a value the spec sets stays.
func TestCreateLateInitializes(t *testing.T) {
	answers := map[string]answer{"POST /v3/users": {code: 201, body: `{"user":{"id":"u1","name":"alice","domain_id":"d1","enabled":false}}`}}
	keystonetest.LateInitializedOnCreate(t, func(t *testing.T, enabled *bool) *bool {
		f := &fakeKeystone{answers: answers}
		e := sharedDriver(clients.SharedReadOptions{}, kubeWith(t))(f.client(t)).(*external)
		mg := newUser(func(p *v1alpha1.UserParameters) { p.Enabled = enabled })
		if _, _, err := e.Create(t.Context(), mg, marker); err != nil {
			t.Fatalf("Create: %v", err)
		}
		return mg.Spec.ForProvider.Enabled
	})
}
