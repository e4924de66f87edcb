package applicationcredential

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var (
	self       = provenance.Marker{Installation: "i1", Resource: "ApplicationCredential.keystone.identity.m.crossplane.io/team-a/ci", Origin: provenance.OriginCreated}
	adopted    = provenance.Marker{Installation: "i1", Resource: self.Resource, Origin: provenance.OriginAdopted}
	markerLine = "[provider-identity: " + self.Encode() + "]"
	boom       = errors.New("boom")
	cloud      = Cloud{AuthURL: "http://keystone.test/v3", Region: "RegionOne"}
)

func newAC(fp v1alpha1.ApplicationCredentialParameters) *v1alpha1.ApplicationCredential {
	return &v1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "ci"}, Spec: v1alpha1.ApplicationCredentialSpec{
		ManagedResourceSpec: xpv2.ManagedResourceSpec{WriteConnectionSecretToReference: &xpv2.LocalSecretReference{Name: "ci-cloud"}},
		ForProvider:         fp}}
}

var base = v1alpha1.ApplicationCredentialParameters{UserID: ptr("u1"), ProjectID: ptr("p1"), Name: "ci", Description: ptr("for CI"),
	PasswordSecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "pw"}, Key: "password"}}

func with(m func(*v1alpha1.ApplicationCredentialParameters)) v1alpha1.ApplicationCredentialParameters {
	fp := base
	m(&fp)
	return fp
}

func secret(name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func kubeWith(objs ...client.Object) client.Client {
	s := runtime.NewScheme()
	_ = corev1.AddToScheme(s)
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
}

var pwSecret = secret("pw", map[string]string{"password": "hunter2"})

// driver returns a driver whose logins answer from the same fake Keystone, or fail with
// loginErr.
func driver(kube client.Reader, rec event.Recorder, loginErr error) func(keystone.API) adoption.Driver[mr, credential] {
	return func(api keystone.API) adoption.Driver[mr, credential] {
		return Deps{Kube: kube, Recorder: rec}.NewDriver(Connection{Admin: api, Cloud: cloud,
			Login: func(_ context.Context, l keystone.UserLogin) (keystone.API, error) {
				if l != (keystone.UserLogin{UserID: "u1", Password: "hunter2", ProjectID: "p1"}) {
					return nil, errors.Errorf("unexpected login %+v", l)
				}
				return api, loginErr
			}})
	}
}

func ours(desc string) credential {
	return credential{ApplicationCredential: applicationcredentials.ApplicationCredential{ID: "c1", Name: "ci", ProjectID: "p1",
		Description: desc + "\n" + markerLine, Roles: []applicationcredentials.Role{{ID: "r1", Name: "reader"}}}, UserID: "u1",
		Published: published{Ref: "team-a/ci-cloud", Secret: "s3cret"}}
}

func TestObserve(t *testing.T) {
	lost := ours("for CI")
	lost.Published = published{Ref: "team-a/ci-cloud", Lost: true}
	unreadable := ours("for CI")
	unreadable.Published = published{Ref: "team-a/ci-cloud", Err: "forbidden"}
	cases := map[string]struct {
		fp         v1alpha1.ApplicationCredentialParameters
		c          credential
		p          identityv1alpha1.Provenance
		wantUp     bool
		wantReason xpv2.ConditionReason
		wantKeys   []string
	}{
		"Matches":             {fp: base, c: ours("for CI"), p: identityv1alpha1.Owned, wantUp: true, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"DescriptionDiffers":  {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Description = ptr("other") }), c: ours("for CI"), p: identityv1alpha1.Owned, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"RolesByIDMatch":      {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) { p.RoleIDs = []string{"r1"} }), c: ours("for CI"), p: identityv1alpha1.Owned, wantUp: true, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"RolesByNameDiffer":   {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) { p.RoleNames = []string{"member"} }), c: ours("for CI"), p: identityv1alpha1.Owned, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"UnrestrictedDiffers": {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Unrestricted = ptr(true) }), c: ours("for CI"), p: identityv1alpha1.Owned, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"ExpiryDiffers":       {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) { p.ExpiresAt = &metav1.Time{} }), c: ours("for CI"), p: identityv1alpha1.Owned, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"AccessRulesDiffer": {fp: with(func(p *v1alpha1.ApplicationCredentialParameters) {
			p.AccessRules = []v1alpha1.ApplicationCredentialAccessRule{{Service: "compute", Method: "GET", Path: "/v2.1/servers"}}
		}), c: ours("for CI"), p: identityv1alpha1.Owned, wantReason: ReasonPublished, wantKeys: []string{KeyAuthURL, KeyCloudsYAML, KeyID, KeySecret}},
		"OwnedSecretLostIsReplaced":        {fp: base, c: lost, p: identityv1alpha1.Owned, wantReason: ReasonSecretUnknown, wantKeys: []string{KeyID}},
		"AdoptedSecretUnknownIsLeft":       {fp: base, c: lost, p: identityv1alpha1.Adopted, wantUp: true, wantReason: ReasonSecretUnknown, wantKeys: []string{KeyID}},
		"ObservedSecretUnknownIsLeft":      {fp: base, c: lost, p: identityv1alpha1.Observed, wantUp: true, wantReason: ReasonSecretUnknown, wantKeys: []string{KeyID}},
		"UnreadableSecretDecidesNothing":   {fp: base, c: unreadable, p: identityv1alpha1.Owned, wantUp: true, wantReason: ReasonSecretUnknown, wantKeys: []string{KeyID}},
		"NoConnectionSecretDecidesNothing": {fp: base, c: func() credential { c := ours("for CI"); c.Published = published{}; return c }(), p: identityv1alpha1.Owned, wantUp: true, wantReason: ReasonNoSecretRef, wantKeys: []string{KeyID}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newAC(tc.fp)
			got := (&external{Connection: Connection{Cloud: cloud}}).Observe(mg, tc.c, tc.p)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			if r := mg.GetCondition(TypeSecretPublished).Reason; r != tc.wantReason {
				t.Errorf("SecretPublished reason: got %s, want %s", r, tc.wantReason)
			}
			var keys []string
			for k := range got.ConnectionDetails {
				keys = append(keys, k)
			}
			if diff := cmp.Diff(tc.wantKeys, sorted(keys)); diff != "" {
				t.Errorf("connection detail keys (-want +got):\n%s", diff)
			}
			o := mg.Status.AtProvider
			if o.ID != "c1" || o.Description != "for CI" || o.Provenance != tc.p || o.SecretPublished != (tc.c.Published.Secret != "") {
				t.Errorf("status.atProvider: %+v", o)
			}
		})
	}
}

func TestCloudsYAML(t *testing.T) {
	got := string(Cloud{AuthURL: "https://ks/v3", Region: "RegionOne", Interface: "internal", Insecure: true}.yaml("c1", "s3cret"))
	want := "clouds:\n  openstack:\n    auth:\n      application_credential_id: c1\n      application_credential_secret: s3cret\n      auth_url: https://ks/v3\n" +
		"    auth_type: v3applicationcredential\n    identity_api_version: 3\n    interface: internal\n    region_name: RegionOne\n    verify: false\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clouds.yaml (-want +got):\n%s", diff)
	}
}

func TestPublished(t *testing.T) {
	cases := map[string]struct {
		objs []client.Object
		want published
	}{
		"HoldsTheSecret": {objs: []client.Object{secret("ci-cloud", map[string]string{"id": "c1", "secret": "s3cret"})}, want: published{Ref: "team-a/ci-cloud", Secret: "s3cret"}},
		"HoldsAnotherID": {objs: []client.Object{secret("ci-cloud", map[string]string{"id": "c0", "secret": "old"})}, want: published{Ref: "team-a/ci-cloud", Lost: true}},
		"HoldsTheIDOnly": {objs: []client.Object{secret("ci-cloud", map[string]string{"id": "c1"})}, want: published{Ref: "team-a/ci-cloud", Lost: true}},
		"SecretIsGone":   {want: published{Ref: "team-a/ci-cloud", Lost: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := &external{Deps: Deps{Kube: kubeWith(tc.objs...)}}
			if diff := cmp.Diff(tc.want, e.published(context.Background(), newAC(base), "c1")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	live := &external{Deps: Deps{Kube: kubeWith(), Live: kubeWith(secret("ci-cloud", map[string]string{"id": "c1", "secret": "s3cret"}))}}
	if got := live.published(context.Background(), newAC(base), "c1"); got.Secret != "s3cret" {
		t.Errorf("a Secret the cache misses is read from the API server: got %+v", got)
	}
	cluster := &clusterv1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Name: "ci"}}
	if got := (&external{Deps: Deps{Kube: kubeWith()}}).published(context.Background(), cluster, "c1"); got != (published{}) {
		t.Errorf("without writeConnectionSecretToRef: got %+v", got)
	}
}

const (
	created    = `{"application_credential": {"id": "c2", "name": "ci", "project_id": "p1", "secret": "n3w"}}`
	createPath = "users/u1/application_credentials"
)

func createCall(desc string) string {
	return `POST ` + createPath + ` {"application_credential":{"description":"` + desc + `\n` + markerLine + `","name":"ci","unrestricted":false}}`
}

func TestCalls(t *testing.T) {
	key := func(err error, format string) error { return keystone.Wrap(err, format, "ci", "u1", "p1") }
	cases := map[string]struct {
		answers  map[string]keystonetest.Answer
		objs     []client.Object
		loginErr error
		call     keystonetest.Op[mr, credential]
		want     keystonetest.Result
	}{
		"FindMatchesTheNameExactly": {
			answers: map[string]keystonetest.Answer{"GET " + createPath + "?name=ci": {Body: `{"application_credentials": [{"id": "c1", "name": "ci"}, {"id": "c9", "name": "CI"}]}`}},
			call:    keystonetest.Find[mr, credential](newAC(base)),
			want:    keystonetest.Result{Value: []string{"c1"}, Calls: []string{"GET " + createPath + "?name=ci"}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{"GET " + createPath + "?name=ci": {Err: boom}},
			call:    keystonetest.Find[mr, credential](newAC(base)),
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{"GET " + createPath + "?name=ci"}, Err: boom},
		},
		"FindUnresolvedAsksNothing": {
			call: keystonetest.Find[mr, credential](newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.UserID = nil }))),
			want: keystonetest.Result{Value: []string(nil), Err: errors.New(errNoUser)},
		},
		"CreateLogsInAsTheUser": {
			answers: map[string]keystonetest.Answer{"POST " + createPath: {Status: 201, Body: created}},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Create[mr, credential](newAC(base), self),
			want:    keystonetest.Result{Value: "c2", Calls: []string{createCall("for CI")}},
		},
		"CreateWithoutThePasswordSecretSendsNothing": {
			call: keystonetest.Create[mr, credential](newAC(base), self),
			want: keystonetest.Result{Value: "", Err: errors.New("skip")},
		},
		"CreateLoginFails": {
			objs:     []client.Object{pwSecret},
			loginErr: boom,
			call:     keystonetest.Create[mr, credential](newAC(base), self),
			want:     keystonetest.Result{Value: "", Err: errors.Wrapf(boom, errLogin, "u1", "p1", "team-a", "pw", "password", "ci")},
		},
		"CreateForbiddenExplainsWhoMay": {
			answers: map[string]keystonetest.Answer{"POST " + createPath: keystonetest.Forbidden},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Create[mr, credential](newAC(base), self),
			want:    keystonetest.Result{Value: "", Calls: []string{createCall("for CI")}, Err: key(keystonetest.Forbidden.Failure("POST", createPath), errCreate+errForbidden)},
		},
		"CreateConflict": {
			answers: map[string]keystonetest.Answer{"POST " + createPath: keystonetest.Conflict},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Create[mr, credential](newAC(base), self),
			want:    keystonetest.Result{Value: "", Calls: []string{createCall("for CI")}, Err: key(keystonetest.Conflict.Failure("POST", createPath), errCreate+errConflict)},
		},
		"CreateFails": {
			answers: map[string]keystonetest.Answer{"POST " + createPath: {Err: boom}},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Create[mr, credential](newAC(base), self),
			want:    keystonetest.Result{Value: "", Calls: []string{createCall("for CI")}, Err: key(boom, errCreate)},
		},
		"CreateWithThePCsCredentials": {
			answers: map[string]keystonetest.Answer{"POST " + createPath: {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, credential](newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.PasswordSecretRef = nil })), self),
			want:    keystonetest.Result{Value: "c2", Calls: []string{createCall("for CI")}},
		},
		"UpdateOfAMatchWritesNothing": {
			call: keystonetest.Update[mr, credential](newAC(base), ours("for CI"), self),
			want: keystonetest.Result{},
		},
		"UpdateOfAnAdoptedOneWithoutSecretWritesNothing": {
			call: keystonetest.Update[mr, credential](newAC(base), func() credential {
				c := ours("for CI")
				c.Published = published{Ref: "team-a/ci-cloud", Lost: true}
				return c
			}(), adopted),
			want: keystonetest.Result{},
		},
		"UpdateReplacesDeleteFirst": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Status: 204}, "POST " + createPath: {Status: 201, Body: created}},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Update[mr, credential](newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Description = ptr("v2") })), ours("for CI"), self),
			want:    keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1", createCall("v2")}},
		},
		"UpdateReplacesALostSecret": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Status: 204}, "POST " + createPath: {Status: 201, Body: created}},
			objs:    []client.Object{pwSecret},
			call: keystonetest.Update[mr, credential](newAC(base), func() credential {
				c := ours("for CI")
				c.Published = published{Ref: "team-a/ci-cloud", Lost: true}
				return c
			}(), self),
			want: keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1", createCall("for CI")}},
		},
		"UpdateDeleteFailsCreatesNothing": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Err: boom}},
			call:    keystonetest.Update[mr, credential](newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Description = ptr("v2") })), ours("for CI"), self),
			want: keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1"},
				Err: errors.Wrapf(keystone.Wrap(boom, errDelete, "ci", "c1", "u1"), errReplaceDelete, "ci", "c1")},
		},
		"UpdateCreateFails": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Status: 204}, "POST " + createPath: {Err: boom}},
			objs:    []client.Object{pwSecret},
			call:    keystonetest.Update[mr, credential](newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Description = ptr("v2") })), ours("for CI"), self),
			want: keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1", createCall("v2")},
				Err: errors.Wrapf(key(boom, errCreate), errReplaceCreate, "ci", "c1")},
		},
		"Delete": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Status: 204}},
			call:    keystonetest.Delete[mr, credential](newAC(base), ours("")),
			want:    keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1"}},
		},
		"DeleteGone": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": keystonetest.NotFound},
			call:    keystonetest.Delete[mr, credential](newAC(base), ours("")),
			want:    keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Err: boom}},
			call:    keystonetest.Delete[mr, credential](newAC(base), ours("")),
			want:    keystonetest.Result{Calls: []string{"DELETE " + createPath + "/c1"}, Err: keystone.Wrap(boom, errDelete, "ci", "c1", "u1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := keystonetest.Run(tc.answers, driver(kubeWith(tc.objs...), event.NewNopRecorder(), tc.loginErr), tc.call)
			opts := []cmp.Option{test.EquateErrors()}
			if name == "CreateWithoutThePasswordSecretSendsNothing" {
				// The reader's own error names the Secret; only its presence matters here.
				if got.Err == nil || len(got.Calls) != 0 {
					t.Errorf("want an error and no calls, got %+v", got)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got, opts...); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// A replacement records the new ID as the external name and says so in an event.
func TestReplaceRecordsAndTells(t *testing.T) {
	rec := &recorder{}
	mg := newAC(with(func(p *v1alpha1.ApplicationCredentialParameters) { p.Description = ptr("v2") }))
	meta.SetExternalName(mg, "c1")
	api := &keystonetest.API{Answers: map[string]keystonetest.Answer{"DELETE " + createPath + "/c1": {Status: 204}, "POST " + createPath: {Status: 201, Body: created}}}
	d := driver(kubeWith(pwSecret), rec, nil)(api)
	conn, err := d.Update(context.Background(), mg, ours("for CI"), self)
	if err != nil {
		t.Fatal(err)
	}
	if got := meta.GetExternalName(mg); got != "c2" {
		t.Errorf("external name %q, want c2", got)
	}
	if string(conn[KeyID]) != "c2" || string(conn[KeySecret]) != "n3w" {
		t.Errorf("connection details: %v", conn)
	}
	if len(rec.events) != 1 || rec.events[0].Reason != reasonReplaced {
		t.Errorf("events: %+v", rec.events)
	}
	for _, e := range rec.events {
		if e.Message == "" || containsSecret(e.Message) {
			t.Errorf("event message %q", e.Message)
		}
	}
}

func containsSecret(s string) bool {
	return strings.Contains(s, "n3w") || strings.Contains(s, "hunter2")
}

type recorder struct{ events []event.Event }

func (r *recorder) Event(_ runtime.Object, e event.Event)    { r.events = append(r.events, e) }
func (r *recorder) WithAnnotations(...string) event.Recorder { return r }
