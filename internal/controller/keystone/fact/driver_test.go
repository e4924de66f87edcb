package fact

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact/facttest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The test kind: a thing has a part, <thing ID>/<part ID>, at /v3/things/{thing}/parts/{part},
// listed per thing at /v3/things/{thing}/parts. It is carried by a GroupMembership resource
// (group: the thing, user: the part), which is just a resource with two ID fields here.
type mr = *v1alpha1.GroupMembership

type part struct{ Thing, Part string }

func (p part) Key() string { return p.Thing + "/" + p.Part }

const (
	errTestKey        = "external name %q is not a part key"
	errTestUnresolved = "the %s of the part is not known: set spec.forProvider.%s"
)

func testKind(shared *Shared[part]) Kind[mr, part] {
	return Kind[mr, part]{
		Type: "test part",
		Parse: func(key string) (part, error) {
			t, p, err := SplitPair(key, errTestKey)
			return part{Thing: t, Part: p}, err
		},
		URL: func(sc keystone.API, p part) string { return sc.ServiceURL("things", p.Thing, "parts", p.Part) },
		Desired: func(mg mr) (part, error) {
			p := part{Thing: Deref(mg.Spec.ForProvider.GroupID), Part: Deref(mg.Spec.ForProvider.UserID)}
			if err := Resolved(errTestUnresolved, ID{"thing", "groupId", p.Thing}, ID{"part", "userId", p.Part}); err != nil {
				return part{}, err
			}
			return p, nil
		},
		Validate: func(mg mr) error {
			if Deref(mg.Spec.ForProvider.UserID) == ".." {
				return errors.New("spec.forProvider.userId is not an ID")
			}
			return nil
		},
		Record: func(mg mr, p part, pv identityv1alpha1.Provenance) {
			mg.Status.AtProvider = v1alpha1.GroupMembershipObservation{ID: p.Key(), GroupID: p.Thing, UserID: p.Part, Provenance: pv}
		},
		ErrCheck: "cannot check part %s", ErrMake: "cannot make part %s", ErrRemove: "cannot remove part %s",
		ErrChanged: "the spec names part %s, but this resource manages %s",
		Shared:     shared,
	}
}

// listParts lists a thing's parts: {"parts": [{"id": ...}]}.
var listParts = &Shared[part]{
	URL: func(sc keystone.API, p part) string { return sc.ServiceURL("things", p.Thing, "parts") },
	List: func(ctx context.Context, sc keystone.API, p part) ([]part, error) {
		var out struct {
			Parts []struct{ ID string } `json:"parts"`
		}
		if _, err := sc.Get(ctx, sc.ServiceURL("things", p.Thing, "parts"), &out, nil); err != nil {
			return nil, err
		}
		ps := make([]part, 0, len(out.Parts))
		for _, o := range out.Parts {
			ps = append(ps, part{Thing: p.Thing, Part: o.ID})
		}
		return ps, nil
	},
}

func newMR(thing, p *string) mr {
	return &v1alpha1.GroupMembership{ObjectMeta: metav1.ObjectMeta{Name: "x"},
		Spec: v1alpha1.GroupMembershipSpec{ForProvider: v1alpha1.GroupMembershipParameters{GroupID: thing, UserID: p}}}
}

func ptr[T any](v T) *T { return &v }

func TestDriver(t *testing.T) {
	const url = "things/t/parts/p"
	p := part{Thing: "t", Part: "p"}
	spec := func() mr { return newMR(ptr("t"), ptr("p")) }
	unresolved := func() mr {
		mg := newMR(ptr("t"), nil)
		mg.Spec.ForProvider.UserRef = &xpv2.Reference{Name: "p"}
		return mg
	}
	deleting := unresolved()
	now := metav1.Now()
	deleting.SetDeletionTimestamp(&now)
	mk := provenance.Marker{Installation: "i", Resource: "GroupMembership.keystone.identity.crossplane.io/x", Origin: provenance.OriginCreated}
	unmarkedDeleting := func() mr {
		mg := spec()
		mg.SetDeletionTimestamp(&now)
		meta.SetExternalName(mg, "t/p")
		return mg
	}
	ownDeleting := func() mr {
		mg := unmarkedDeleting()
		meta.AddAnnotations(mg, map[string]string{adoption.AnnotationMarker: mk.Encode()})
		return mg
	}
	get := func(id string) keystonetest.Op[mr, part] { return facttest.Get[mr, part](spec(), id) }
	facttest.Run(t, func(sc keystone.API) adoption.Driver[mr, part] { return New(testKind(listParts), sc, nil) }, map[string]facttest.Call[mr, part]{
		"GetExists": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: {Status: 204}},
			Op:      get("t/p"), Want: p, Calls: []string{"HEAD " + url},
		},
		"GetExistsAnswered200": {
			// Keystone documents 200 for some HEADs and answers 204: both are yes.
			Answers: map[string]keystonetest.Answer{"HEAD " + url: {Status: 200}},
			Op:      get("t/p"), Want: p, Calls: []string{"HEAD " + url},
		},
		"GetGone": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound},
			Op:      get("t/p"), Want: p, Err: "404", NotFound: true, Calls: []string{"HEAD " + url},
		},
		"GetOwnDeletionIsNotChecked": {
			// Delete finds out whether it is still there: a HEAD would decide nothing.
			Op: facttest.Get[mr, part](ownDeleting(), "t/p"), Want: p,
		},
		"GetDeletionOfAnotherKeyIsChecked": {
			Answers: map[string]keystonetest.Answer{"HEAD things/t/parts/q": keystonetest.NotFound},
			Op:      facttest.Get[mr, part](ownDeleting(), "t/q"), Want: part{Thing: "t", Part: "q"}, Err: "404", NotFound: true,
			Calls: []string{"HEAD things/t/parts/q"},
		},
		"GetDeletionWithoutMarkerIsChecked": {
			// Not proven ours (an adoption that never happened): whether it exists decides.
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound},
			Op:      facttest.Get[mr, part](unmarkedDeleting(), "t/p"), Want: p, Err: "404", NotFound: true, Calls: []string{"HEAD " + url},
		},
		"GetBadKey": {
			Op: get("p-only"), Want: part{}, Err: `external name "p-only" is not a part key`,
		},
		"GetServerError": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.ServerError},
			Op:      get("t/p"), Want: p, Err: "cannot check part t/p", Calls: []string{"HEAD " + url},
		},
		"FindNone": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound},
			Op:      keystonetest.Find[mr, part](spec()), Want: []string(nil), Calls: []string{"HEAD " + url},
		},
		"FindExisting": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: {Status: 204}},
			Op:      keystonetest.Find[mr, part](spec()), Want: []string{"t/p"}, Calls: []string{"HEAD " + url},
		},
		"FindCannotCheck": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.ServerError},
			Op:      keystonetest.Find[mr, part](spec()), Want: []string(nil), Err: "cannot check part t/p", Calls: []string{"HEAD " + url},
		},
		"FindUnresolved": {
			Op:   keystonetest.Find[mr, part](unresolved()),
			Want: []string(nil), Err: "the part of the part is not known: set spec.forProvider.userId",
		},
		"FindUnresolvedWhileDeleting": {
			// Nothing to find: the resource goes without its fact.
			Op: keystonetest.Find[mr, part](deleting), Want: []string(nil),
		},
		"CreateAdds": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound, "PUT " + url: {Status: 204}},
			Op:      keystonetest.Create[mr, part](spec(), mk), Want: "t/p", Calls: []string{"HEAD " + url, "PUT " + url},
		},
		"CreateAdds201": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound, "PUT " + url: {Status: 201, Body: `{"part": {}}`}},
			Op:      keystonetest.Create[mr, part](spec(), mk), Want: "t/p", Calls: []string{"HEAD " + url, "PUT " + url},
		},
		"CreateFindsItMadeMeanwhile": {
			// Keystone's PUT would answer alike: only the HEAD before it can tell.
			Answers: map[string]keystonetest.Answer{"HEAD " + url: {Status: 204}, "PUT " + url: {Status: 204}},
			Op:      keystonetest.Create[mr, part](spec(), mk), Want: "",
			Err: `test part "t/p" (ID t/p) already exists`, Calls: []string{"HEAD " + url},
		},
		"CreateCannotCheck": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.ServerError, "PUT " + url: {Status: 204}},
			Op:      keystonetest.Create[mr, part](spec(), mk), Want: "",
			Err: "cannot check part t/p", Calls: []string{"HEAD " + url},
		},
		"CreateRefused": {
			Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound, "PUT " + url: keystonetest.Forbidden},
			Op:      keystonetest.Create[mr, part](spec(), mk), Want: "",
			Err: "cannot make part t/p", Calls: []string{"HEAD " + url, "PUT " + url},
		},
		"CreateUnresolved": {
			Op:   keystonetest.Create[mr, part](unresolved(), mk),
			Want: "", Err: "the part of the part is not known",
		},
		"CreateInvalidStoredSpec": {
			// Stored before the CRD's rules: refused before any call.
			Op:   keystonetest.Create[mr, part](newMR(ptr("t"), ptr("..")), mk),
			Want: "", Err: "spec.forProvider.userId is not an ID",
		},
		"UpdateSameWritesNothing": {
			Op: keystonetest.Update[mr, part](spec(), p, mk),
		},
		"UpdateChangedRefused": {
			Op:  keystonetest.Update[mr, part](newMR(ptr("t"), ptr("q")), p, mk),
			Err: "the spec names part t/q, but this resource manages t/p",
		},
		"UpdateInvalidStoredSpec": {
			Op:  keystonetest.Update[mr, part](newMR(ptr("t"), ptr("..")), p, mk),
			Err: "spec.forProvider.userId is not an ID",
		},
		"DeleteRemovesTheObserved": {
			// The spec changed meanwhile: Delete still removes only what the resource owns.
			Answers: map[string]keystonetest.Answer{"DELETE " + url: {Status: 204}},
			Op:      keystonetest.Delete[mr, part](newMR(ptr("t"), ptr("q")), p),
			Calls:   []string{"DELETE " + url},
		},
		"DeleteAlreadyGone": {
			Answers: map[string]keystonetest.Answer{"DELETE " + url: keystonetest.NotFound},
			Op:      keystonetest.Delete[mr, part](spec(), p), Calls: []string{"DELETE " + url},
		},
		"DeleteRefused": {
			Answers: map[string]keystonetest.Answer{"DELETE " + url: keystonetest.Forbidden},
			Op:      keystonetest.Delete[mr, part](spec(), p),
			Err:     "cannot remove part t/p", Calls: []string{"DELETE " + url},
		},
	})
}

func TestObserveAndDescribe(t *testing.T) {
	observed := part{Thing: "t", Part: "p"}
	cases := map[string]struct {
		mg       mr
		wantUp   bool
		wantDiff bool
	}{
		"Same":                 {mg: newMR(ptr("t"), ptr("p")), wantUp: true},
		"SpecNamesAnotherPart": {mg: newMR(ptr("t"), ptr("q")), wantDiff: true},
		// Unresolved references fail the reconcile before Observe: no change.
		"UnresolvedIsNoChange": {mg: newMR(ptr("t"), nil), wantUp: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := New(testKind(nil), nil, nil)
			obs := d.Observe(tc.mg, observed, identityv1alpha1.Adopted)
			want := v1alpha1.GroupMembershipObservation{ID: "t/p", GroupID: "t", UserID: "p", Provenance: identityv1alpha1.Adopted}
			if diff := cmp.Diff(want, tc.mg.Status.AtProvider); diff != "" {
				t.Errorf("Record: -want +got:\n%s", diff)
			}
			if obs.UpToDate != tc.wantUp || (obs.Diff != "") != tc.wantDiff || obs.LateInitialized {
				t.Errorf("Observe() = %+v, want UpToDate %v, a diff %v, nothing late-initialized", obs, tc.wantUp, tc.wantDiff)
			}
		})
	}
	want := adoption.Description{ID: "t/p", Type: "test part", Key: "t/p", Markerless: true}
	if diff := cmp.Diff(want, New(testKind(nil), nil, nil).Describe(observed)); diff != "" {
		t.Errorf("Describe: -want +got:\n%s", diff)
	}
}

func TestHelpers(t *testing.T) {
	type split struct{ First, Second, Err string }
	splits := map[string]split{
		"a/b":   {First: "a", Second: "b"},
		"a b/c": {First: "a b", Second: "c"},
		"a":     {Err: `bad "a"`},
		"/b":    {Err: `bad "/b"`},
		"a/":    {Err: `bad "a/"`},
		"a/b/c": {Err: `bad "a/b/c"`},
		"":      {Err: `bad ""`},
	}
	for key, want := range splits {
		f, s, err := SplitPair(key, "bad %q")
		got := split{First: f, Second: s}
		if err != nil {
			got.Err = err.Error()
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SplitPair(%q): -want +got:\n%s", key, diff)
		}
	}
	resolved := map[string]struct {
		ids  []ID
		want string
	}{
		"AllSet":      {ids: []ID{{"a", "aId", "1"}, {"b", "bId", "2"}}},
		"FirstUnset":  {ids: []ID{{"a", "aId", ""}, {"b", "bId", ""}}, want: "no a: set aId"},
		"SecondUnset": {ids: []ID{{"a", "aId", "1"}, {"b", "bId", ""}}, want: "no b: set bId"},
	}
	for name, tc := range resolved {
		got := ""
		if err := Resolved("no %s: set %s", tc.ids...); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: Resolved() = %q, want %q", name, got, tc.want)
		}
	}
	if Deref(nil) != "" || Deref(ptr("x")) != "x" {
		t.Errorf("Deref: want \"\" for nil and the value otherwise")
	}
}

// Many resources checking parts of one thing share one list of the thing's parts; a part
// missing from it is checked alone (HEAD), one we just made is answered by Keystone's answer to
// the PUT without a read, and one we just removed is checked alone again.
func TestSharedChecks(t *testing.T) {
	for _, findFromList := range []bool{true, false} {
		t.Run(fmt.Sprintf("FindFromList=%v", findFromList), func(t *testing.T) {
			clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
			const n = 40
			rows := make([]string, 0, n)
			answers := map[string]keystonetest.Answer{
				"HEAD things/t/parts/gone":  keystonetest.NotFound,
				"HEAD things/t/parts/new":   keystonetest.NotFound,
				"PUT things/t/parts/new":    {Status: 204},
				"DELETE things/t/parts/new": {Status: 204},
			}
			for i := range n {
				answers[fmt.Sprintf("HEAD things/t/parts/p%d", i)] = keystonetest.Answer{Status: 204}
				rows = append(rows, fmt.Sprintf(`{"id": "p%d"}`, i))
			}
			answers["GET things/t/parts"] = keystonetest.Answer{Body: `{"parts": [` + strings.Join(rows, ",") + `]}`}
			api := &keystonetest.API{Answers: answers}
			shared := *listParts
			shared.Find = findFromList
			d := testKind(&shared).Drivers(clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute, Now: func() time.Time { return clock }})(api)
			check := func(key string) string {
				_, err := d.Get(context.Background(), newMR(nil, nil), key)
				switch {
				case d.IsNotFound(err):
					return "not found"
				case err != nil:
					return err.Error()
				}
				return "exists"
			}
			// 40 resources check their part one second apart: the demand grows until one lists.
			for i := range n {
				clock = clock.Add(time.Second)
				if got := check(fmt.Sprintf("t/p%d", i)); got != "exists" {
					t.Fatalf("part %d: %s, want exists", i, got)
				}
			}
			calls := api.Calls()
			if diff := cmp.Diff("GET things/t/parts", calls[len(calls)-1]); diff != "" {
				t.Errorf("the 40th check: -want +got:\n%s", diff)
			}
			before := len(calls)
			got := make([]string, 0, 4)
			got = append(got, check("t/p1"), check("t/gone"))
			found, err := d.Find(context.Background(), newMR(ptr("t"), ptr("p2")))
			if err != nil || len(found) != 1 {
				t.Fatalf("Find() = %v, %v; want the part", found, err)
			}
			if _, _, err := d.Create(context.Background(), newMR(ptr("t"), ptr("new")), provenance.Marker{}); err != nil {
				t.Fatal(err)
			}
			got = append(got, check("t/new"))
			if err := d.Delete(context.Background(), nil, part{Thing: "t", Part: "new"}); err != nil {
				t.Fatal(err)
			}
			got = append(got, check("t/new"))
			if diff := cmp.Diff([]string{"exists", "not found", "exists", "not found"}, got); diff != "" {
				t.Errorf("checks after the list: -want +got:\n%s", diff)
			}
			want := []string{"HEAD things/t/parts/gone"} // not in the list: checked alone
			if !findFromList {
				want = append(want, "HEAD things/t/parts/p2") // Find checks alone
			}
			want = append(want,
				"HEAD things/t/parts/new", // Create's check before its PUT
				"PUT things/t/parts/new",
				"DELETE things/t/parts/new",
				"HEAD things/t/parts/new", // removed: neither the list nor our write answers
			)
			if diff := cmp.Diff(want, api.Calls()[before:]); diff != "" {
				t.Errorf("calls after the list: -want +got:\n%s", diff)
			}
		})
	}
}

// A list Keystone refuses (403) is no answer: every check goes alone.
func TestSharedListRefused(t *testing.T) {
	clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	answers := map[string]keystonetest.Answer{"GET things/t/parts": keystonetest.Forbidden}
	for i := range 60 {
		answers[fmt.Sprintf("HEAD things/t/parts/p%d", i)] = keystonetest.Answer{Status: 204}
	}
	api := &keystonetest.API{Answers: answers}
	d := testKind(listParts).Drivers(clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute, Now: func() time.Time { return clock }})(api)
	for i := range 60 {
		clock = clock.Add(time.Second)
		if _, err := d.Get(context.Background(), newMR(nil, nil), fmt.Sprintf("t/p%d", i)); err != nil {
			t.Fatalf("part %d: %v, want it to exist", i, err)
		}
	}
	lists := 0
	for _, c := range api.Calls() {
		if c == "GET things/t/parts" {
			lists++
		}
	}
	if lists != 1 {
		t.Errorf("%d lists, want 1: a refused list is not tried again at once (calls %v)", lists, api.Calls())
	}
}

// A fact made by someone else before a resource's first create is refused, not claimed: Observe
// leaves the lookup to the create (adoption.TwinRefuser), whose check right before the PUT finds
// the fact; the create fails with a conflict, no PUT is sent, and the next reconcile reports
// AdoptionRequired.
func TestMadeBetweenObserveAndCreate(t *testing.T) {
	const url = "things/t/parts/p"
	api := &keystonetest.API{Answers: map[string]keystonetest.Answer{"HEAD " + url: keystonetest.NotFound, "PUT " + url: {Status: 204}}}
	newExternal := func() *adoption.External[mr, part] {
		return adoption.NewExternal[mr, part](New(testKind(nil), api, nil), adoption.Config{
			GroupKind: "GroupMembership.keystone.identity.crossplane.io", Installation: "i",
		})
	}
	mg := newMR(ptr("t"), ptr("p"))
	e := newExternal()
	obs, err := e.Observe(context.Background(), mg)
	if err != nil || obs.ResourceExists {
		t.Fatalf("Observe() before the part exists: exists %v, err %v", obs.ResourceExists, err)
	}
	if calls := api.Calls(); len(calls) != 0 {
		t.Errorf("Observe() before the first create called %v, want nothing: the create checks", calls)
	}

	api.Answers["HEAD "+url] = keystonetest.Answer{Status: 204} // made by hand meanwhile
	created := time.Now()
	meta.SetExternalCreatePending(mg, created)
	_, err = e.Create(context.Background(), mg)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Create() of a part made meanwhile: %v, want a ConflictError", err)
	}
	type state struct {
		ExternalName string
		Marker       string
		Calls        []string
	}
	want := state{Calls: []string{"HEAD " + url}}
	got := state{meta.GetExternalName(mg), mg.GetAnnotations()[adoption.AnnotationMarker], api.Calls()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after Create(): -want +got:\n%s", diff)
	}

	// The reconciler records the failed create; the next reconcile finds a part that is not
	// this resource's.
	meta.SetExternalCreateFailed(mg, created.Add(time.Second))
	if _, err := newExternal().Observe(context.Background(), mg); !errors.As(err, &ce) {
		t.Fatalf("next Observe(): %v, want a ConflictError", err)
	}
	if r := mg.GetCondition(xpv2.TypeReady).Reason; r != adoption.ReasonAdoptionRequired {
		t.Errorf("Ready reason %q, want AdoptionRequired", r)
	}
}

// blockingAPI holds a HEAD of one URL until release is closed, and says when it is in flight.
type blockingAPI struct {
	*keystonetest.API
	url      string
	inFlight chan struct{}
	release  chan struct{}
}

func (a *blockingAPI) Head(ctx context.Context, url string, o *gophercloud.RequestOpts) (*http.Response, error) {
	if url == keystonetest.Endpoint+a.url {
		close(a.inFlight)
		<-a.release
	}
	return a.API.Head(ctx, url, o)
}

// Creates that check their facts while another create of the same list checks share one list
// of it, read after all of them asked: a fact in it is refused, the others are made. The first
// create, alone, checked with a HEAD.
func TestCreatesCheckTogether(t *testing.T) {
	api := &blockingAPI{
		API: &keystonetest.API{Answers: map[string]keystonetest.Answer{
			"HEAD things/t/parts/first": keystonetest.NotFound,
			"PUT things/t/parts/first":  {Status: 204},
			"GET things/t/parts":        {Body: `{"parts": [{"id": "first"}, {"id": "taken"}]}`},
			"PUT things/t/parts/a":      {Status: 204},
			"PUT things/t/parts/b":      {Status: 204},
		}},
		url: "things/t/parts/first", inFlight: make(chan struct{}), release: make(chan struct{}),
	}
	d := testKind(listParts).Drivers(clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute})(api).(*Driver[mr, part])
	create := func(p string) string {
		_, _, err := d.Create(context.Background(), newMR(ptr("t"), ptr(p)), provenance.Marker{})
		var ce *adoption.ConflictError
		switch {
		case errors.As(err, &ce):
			return "conflict"
		case err != nil:
			return err.Error()
		}
		return "made"
	}
	first := make(chan string, 1)
	go func() { first <- create("first") }()
	<-api.inFlight

	parts := []string{"a", "b", "taken"}
	got := make([]string, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = create(p) }()
	}
	scope := clients.Scope{Client: d.sc, List: keystonetest.Endpoint + "things/t/parts"}
	for deadline := time.Now().Add(5 * time.Second); d.checks.Waiting(scope) < len(parts); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d creates wait for the next check, want %d", d.checks.Waiting(scope), len(parts))
		}
	}
	close(api.release)
	wg.Wait()

	if diff := cmp.Diff([]string{"made", "made", "conflict"}, got); diff != "" {
		t.Errorf("creates that checked together (-want +got):\n%s", diff)
	}
	if got := <-first; got != "made" {
		t.Errorf("first create: %s, want made", got)
	}
	calls := api.Calls()
	slices.Sort(calls)
	want := []string{"GET things/t/parts", "HEAD things/t/parts/first", "PUT things/t/parts/a", "PUT things/t/parts/b", "PUT things/t/parts/first"}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}
