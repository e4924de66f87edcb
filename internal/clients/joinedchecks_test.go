package clients

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var errCheckNotFound = errors.New("404")

// checkSystem is a scope of a test system: the IDs that exist, and counts of its reads. A Get of
// the ID "block" waits for release.
type checkSystem struct {
	exists  map[string]bool
	listErr error
	release chan struct{}
	started chan string
	gets    atomic.Int32
	lists   atomic.Int32
}

func newCheckSystem(ids ...string) *checkSystem {
	s := &checkSystem{exists: map[string]bool{}, release: make(chan struct{}), started: make(chan string, 100)}
	for _, id := range ids {
		s.exists[id] = true
	}
	return s
}

func (s *checkSystem) source(id string) Source[string] {
	return Source[string]{
		Get: func(context.Context) (string, error) {
			s.gets.Add(1)
			s.started <- id
			if id == "block" {
				<-s.release
			}
			if !s.exists[id] {
				return "", errCheckNotFound
			}
			return id, nil
		},
		List: func(context.Context) ([]string, error) {
			s.lists.Add(1)
			if s.listErr != nil {
				return nil, s.listErr
			}
			out := []string{}
			for id := range s.exists {
				out = append(out, id)
			}
			return out, nil
		},
		ID:      func(v string) string { return v },
		Refused: func(err error) bool { return err.Error() == "refused" },
	}
}

func newJoinedChecks() *JoinedChecks[string] {
	return &JoinedChecks[string]{NotFound: func(err error) bool { return errors.Is(err, errCheckNotFound) }}
}

var checkScopeA = Scope{Client: "c", List: "role_assignments?role.id=a"}

// checkWhileBlocked starts a check of "block", then checks ids while it is under way, and
// returns their answers once it ends.
func checkWhileBlocked(t *testing.T, j *JoinedChecks[string], sys *checkSystem, ids ...string) map[string]bool {
	t.Helper()
	go func() { _, _ = j.Exists(context.Background(), checkScopeA, "block", sys.source("block")) }()
	// Earlier rounds' reads are still in started.
	for got := <-sys.started; got != "block"; got = <-sys.started {
	}
	var mu sync.Mutex
	got := map[string]bool{}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := j.Exists(context.Background(), checkScopeA, id, sys.source(id))
			if err != nil {
				t.Errorf("Exists(%s): %v", id, err)
			}
			mu.Lock()
			got[id] = ok
			mu.Unlock()
		}()
	}
	// Let them all queue behind the read under way before it ends.
	waitFor(t, func() bool { return j.Waiting(checkScopeA) == len(ids) })
	close(sys.release)
	wg.Wait()
	return got
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
	}
}

// A check with no other of its scope under way reads its object alone, whatever the scope.
func TestJoinedChecksLoneCheckReadsAlone(t *testing.T) {
	j := newJoinedChecks()
	sys := newCheckSystem("x")
	for id, want := range map[string]bool{"x": true, "y": false} {
		got, err := j.Exists(context.Background(), checkScopeA, id, sys.source(id))
		if err != nil || got != want {
			t.Errorf("Exists(%s): got %v, %v; want %v, nil", id, got, err, want)
		}
	}
	if g, l := sys.gets.Load(), sys.lists.Load(); g != 2 || l != 0 {
		t.Errorf("reads: got %d gets and %d lists, want 2 and 0", g, l)
	}
	if len(j.scopes) != 0 {
		t.Errorf("scopes kept after the checks ended: %d", len(j.scopes))
	}
}

// Checks that come while one is under way share one list, started after all of them asked.
func TestJoinedChecksWaitersShareOneList(t *testing.T) {
	j := newJoinedChecks()
	sys := newCheckSystem("a", "c")
	got := checkWhileBlocked(t, j, sys, "a", "b", "c", "d")
	if diff := cmp.Diff(map[string]bool{"a": true, "b": false, "c": true, "d": false}, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if g, l := sys.gets.Load(), sys.lists.Load(); g != 1 || l != 1 {
		t.Errorf("reads: got %d gets and %d lists, want 1 (the first check) and 1", g, l)
	}
}

// One check waiting is read alone: a list would answer only it.
func TestJoinedChecksOneWaiterReadsAlone(t *testing.T) {
	j := newJoinedChecks()
	sys := newCheckSystem("a")
	got := checkWhileBlocked(t, j, sys, "a")
	if !got["a"] {
		t.Errorf("Exists(a): got false, want true")
	}
	if g, l := sys.gets.Load(), sys.lists.Load(); g != 2 || l != 0 {
		t.Errorf("reads: got %d gets and %d lists, want 2 and 0", g, l)
	}
}

// A list that fails answers nothing: its waiters read alone. A refused list is not tried again
// for a while; an outage fails that list only.
func TestJoinedChecksFailedListReadsAlone(t *testing.T) {
	cases := map[string]struct {
		err       string
		wantLists int32
	}{
		"Outage":  {err: "connection refused", wantLists: 2},
		"Refused": {err: "refused", wantLists: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			j := newJoinedChecks()
			sys := newCheckSystem("a")
			sys.listErr = errors.New(tc.err)
			got := checkWhileBlocked(t, j, sys, "a", "b")
			if diff := cmp.Diff(map[string]bool{"a": true, "b": false}, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			if g := sys.gets.Load(); g != 3 {
				t.Errorf("gets: got %d, want 3 (the first check, then both waiters alone)", g)
			}
			// A second round: after an outage the waiters list again; after a refusal they
			// read alone.
			sys.release = make(chan struct{})
			checkWhileBlocked(t, j, sys, "a", "b")
			if l := sys.lists.Load(); l != tc.wantLists {
				t.Errorf("lists over two rounds: got %d, want %d", l, tc.wantLists)
			}
		})
	}
}

// A failed read alone is the check's error, not an answer.
func TestJoinedChecksGetErrorIsReturned(t *testing.T) {
	j := newJoinedChecks()
	boom := errors.New("500")
	src := Source[string]{Get: func(context.Context) (string, error) { return "", boom }}
	if ok, err := j.Exists(context.Background(), checkScopeA, "x", src); ok || !errors.Is(err, boom) {
		t.Errorf("Exists: got %v, %v; want false, %v", ok, err, boom)
	}
}

// A waiter whose context ends returns at once; the others still get their answer.
func TestJoinedChecksWaiterGivesUp(t *testing.T) {
	j := newJoinedChecks()
	sys := newCheckSystem("a", "b")
	go func() { _, _ = j.Exists(context.Background(), checkScopeA, "block", sys.source("block")) }()
	<-sys.started
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() { _, err := j.Exists(ctx, checkScopeA, "a", sys.source("a")); gaveUp <- err }()
	answered := make(chan bool, 1)
	go func() { ok, _ := j.Exists(context.Background(), checkScopeA, "b", sys.source("b")); answered <- ok }()
	waitFor(t, func() bool { return j.Waiting(checkScopeA) == 2 })
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter that gave up: got %v, want context.Canceled", err)
	}
	close(sys.release)
	if !<-answered {
		t.Errorf("Exists(b): got false, want true")
	}
}

// A list much larger than the checks waiting for it costs more than their reads: once its size
// is known, a few waiters read alone; what is known of an idle scope is dropped after a while.
func TestJoinedChecksLargeListNotReadForFewWaiters(t *testing.T) {
	clock := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	j := newJoinedChecks()
	j.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	sys := newCheckSystem("a")
	for i := range 3 * listRowsPerRead {
		sys.exists[fmt.Sprintf("other-%d", i)] = true
	}
	// The size is not known yet: two waiters share a list of 3,001.
	checkWhileBlocked(t, j, sys, "a", "b")
	if l := sys.lists.Load(); l != 1 {
		t.Fatalf("first round: %d lists, want 1", l)
	}
	// Now it is: two waiters read alone, four share a list.
	sys.release = make(chan struct{})
	if diff := cmp.Diff(map[string]bool{"a": true, "b": false}, checkWhileBlocked(t, j, sys, "a", "b")); diff != "" {
		t.Errorf("second round (-want +got):\n%s", diff)
	}
	sys.release = make(chan struct{})
	checkWhileBlocked(t, j, sys, "a", "b", "c", "d", "e")
	if l, g := sys.lists.Load(), sys.gets.Load(); l != 2 || g != 5 {
		t.Errorf("after three rounds: %d lists and %d gets, want 2 (the first and third rounds) and 5 (three blocked, two alone)", l, g)
	}
	if len(j.scopes) != 1 {
		t.Errorf("scopes kept: %d, want 1 (its list's size is known)", len(j.scopes))
	}
	mu.Lock()
	clock = clock.Add(checkScopeMemory + time.Second)
	mu.Unlock()
	if _, err := j.Exists(context.Background(), Scope{Client: "c", List: "other"}, "x", sys.source("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := j.scopes[checkScopeA]; ok {
		t.Errorf("the idle scope is still kept %s after its last list", checkScopeMemory)
	}
}
