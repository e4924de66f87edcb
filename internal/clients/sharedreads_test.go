package clients

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeScope is a system's scope of objects ("id=value"), counting what it was asked.
type fakeScope struct {
	mu      sync.Mutex
	objects map[string]string
	listErr error
	lists   int
	gets    int
}

var (
	errGone    = errors.New("gone")
	errRefused = errors.New("403")
)

func (f *fakeScope) source(id string) Source[string] {
	return Source[string]{
		List: func(context.Context) ([]string, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.lists++
			if f.listErr != nil {
				return nil, f.listErr
			}
			var out []string
			for k, v := range f.objects {
				out = append(out, k+"="+v)
			}
			return out, nil
		},
		Get: func(context.Context) (string, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.gets++
			v, ok := f.objects[id]
			if !ok {
				return "", errGone
			}
			return id + "=" + v, nil
		},
		Refused: func(err error) bool { return errors.Is(err, errRefused) },
		ID: func(s string) string {
			for i := range s {
				if s[i] == '=' {
					return s[:i]
				}
			}
			return s
		},
	}
}

func TestSharedReads(t *testing.T) {
	const fresh, window = 3 * time.Second, time.Minute
	// step is one thing that happens, after the clock moved on by `after`.
	type step struct {
		after  time.Duration
		read   string            // read this ID and note what came back
		set    map[string]string // change the system by hand
		drop   string            // delete this object by hand; "-": our write of an unknown object failed (Drop)
		wrote  [2]string         // our own write: ID and the value the system answered
		forget string            // our own write without an answer to keep
		fail   error             // the system refuses lists from now on
		match  string            // look up the objects with this ID through Match
		alone  bool              // read or match with a ReadAlone context
	}
	type result struct {
		Reads []string
		Lists int
		Gets  int
	}
	// busy reads 40 different objects within a window: enough demand to list (40*3/60 = 2).
	busy := func() []step {
		s := make([]step, 0, 40)
		for i := range 40 {
			s = append(s, step{after: time.Second, read: fmt.Sprintf("o%d", i)})
		}
		return s
	}
	objects := func() map[string]string {
		m := map[string]string{}
		for i := range 40 {
			m[fmt.Sprintf("o%d", i)] = "v"
		}
		return m
	}
	cases := map[string]struct {
		steps []step
		// skip is how many reads of the result are not compared (those of busy()).
		skip int
		want result
	}{
		"FewReadersReadAlone": {
			steps: []step{{read: "o1"}, {read: "o2"}, {after: time.Second, read: "o1"}},
			want:  result{Reads: []string{"o1=v", "o2=v", "o1=v"}, Gets: 3},
		},
		"BusyScopeSharesOneListWhileFresh": {
			steps: append(busy(), step{read: "o1"}, step{after: time.Second, read: "o2"}, step{after: time.Second, read: "o3"}),
			skip:  40,
			// The 40 reads over 40 s: the first 39 alone (the demand grows), then a list; the three
			// reads within 2 s of it share it.
			want: result{Reads: []string{"o1=v", "o2=v", "o3=v"}, Lists: 1, Gets: 39},
		},
		"StaleListAnswersNothing": {
			steps: append(busy(), step{set: map[string]string{"o1": "changed"}}, step{after: fresh + time.Millisecond, read: "o1"}),
			skip:  40,
			want:  result{Reads: []string{"o1=changed"}, Lists: 2, Gets: 39},
		},
		"ChangeWithinFreshIsSeenAfterIt": {
			steps: append(busy(), step{set: map[string]string{"o1": "changed"}}, step{read: "o1"},
				step{after: fresh, read: "o1"}, step{after: time.Millisecond, read: "o1"}),
			skip: 40,
			want: result{Reads: []string{"o1=v", "o1=v", "o1=changed"}, Lists: 2, Gets: 39},
		},
		"MissingFromTheListIsReadAlone": {
			steps: append(busy(), step{drop: "o1"}, step{after: fresh + time.Millisecond, read: "o2"}, step{read: "o1"}, step{read: "new"}),
			skip:  40,
			want:  result{Reads: []string{"o2=v", "error: gone", "error: gone"}, Lists: 2, Gets: 41},
		},
		"OwnWriteAnswersBeforeAnOlderList": {
			steps: append(busy(), step{wrote: [2]string{"o1", "o1=ours"}}, step{read: "o1"}, step{read: "o2"}),
			skip:  40,
			want:  result{Reads: []string{"o1=ours", "o2=v"}, Lists: 1, Gets: 39},
		},
		"OwnWriteAnswersAlone": {
			steps: []step{{wrote: [2]string{"o1", "o1=ours"}}, {after: fresh, read: "o1"}, {after: time.Millisecond, read: "o1"}},
			want:  result{Reads: []string{"o1=ours", "o1=v"}, Gets: 1},
		},
		"ForgottenIsNotAnsweredByAnOlderList": {
			steps: append(busy(), step{set: map[string]string{"o1": "deleted-and-remade"}}, step{forget: "o1"}, step{read: "o1"}, step{read: "o2"}),
			skip:  40,
			want:  result{Reads: []string{"o1=deleted-and-remade", "o2=v"}, Lists: 1, Gets: 40},
		},
		"RefusedListFallsBackToSingleReads": {
			steps: append([]step{{fail: errRefused}}, append(busy(), step{after: fresh + time.Millisecond, read: "o1"}, step{read: "o2"})...),
			skip:  40,
			// The list is tried once when demand calls for it, then not for a while.
			want: result{Reads: []string{"o1=v", "o2=v"}, Lists: 1, Gets: 42},
		},
		"MatchFromAFreshList": {
			steps: append(busy(), step{match: "o1"}, step{match: "none"}),
			skip:  40,
			want:  result{Reads: []string{"match [o1=v] true", "match [] true"}, Lists: 1, Gets: 39},
		},
		"MatchWithoutAListAsksTheSystem": {
			steps: []step{{match: "o1"}},
			want:  result{Reads: []string{"match [] false"}},
		},
		"MatchSeesOurWriteSinceTheList": {
			steps: append(busy(), step{after: time.Millisecond, wrote: [2]string{"made", "made=ours"}}, step{match: "made"}),
			skip:  40,
			want:  result{Reads: []string{"match [made=ours] true"}, Lists: 1, Gets: 39},
		},
		"MatchAsksAfterOurDeleteSinceTheList": {
			steps: append(busy(), step{after: time.Millisecond, forget: "o1"}, step{match: "o1"}),
			skip:  40,
			want:  result{Reads: []string{"match [] false"}, Lists: 1, Gets: 39},
		},
		"MatchAfterADropListsAfresh": {
			steps: append(busy(), step{after: time.Millisecond, drop: "-"}, step{match: "o1"}),
			skip:  40,
			// The list from before the failed write answers nothing; a new one does.
			want: result{Reads: []string{"match [o1=v] true"}, Lists: 2, Gets: 39},
		},
		// A deletion's reads see the system now: a change by hand within Fresh, and no answer
		// from our own write or a fresh list, even in a busy scope.
		"ReadAloneSeesAChangeWithinFresh": {
			steps: append(busy(), step{set: map[string]string{"o1": "changed"}}, step{read: "o1"}, step{read: "o1", alone: true}),
			skip:  40,
			want:  result{Reads: []string{"o1=v", "o1=changed"}, Lists: 1, Gets: 40},
		},
		"ReadAloneInABusyScopeStartsNoList": {
			// The polls made the scope busy enough for a list: a deletion's reads still start none.
			steps: append(busy(), step{read: "o1", alone: true}, step{read: "o2", alone: true}),
			skip:  40,
			want:  result{Reads: []string{"o1=v", "o2=v"}, Lists: 1, Gets: 41},
		},
		"ReadAloneIsNotAnsweredByOurWrite": {
			steps: []step{{wrote: [2]string{"o1", "o1=ours"}}, {read: "o1", alone: true}},
			want:  result{Reads: []string{"o1=v"}, Gets: 1},
		},
		"MatchReadAloneAsksTheSystem": {
			steps: append(busy(), step{match: "o1", alone: true}),
			skip:  40,
			want:  result{Reads: []string{"match [] false"}, Lists: 1, Gets: 39},
		},
		"FailedListIsTriedAgainWhenStale": {
			steps: append([]step{{fail: errors.New("connection refused")}}, append(busy(), step{after: fresh + time.Millisecond, read: "o1"}, step{read: "o2"})...),
			skip:  40,
			// An outage of lists only fails each list, whose readers read alone; the next period
			// lists again.
			want: result{Reads: []string{"o1=v", "o2=v"}, Lists: 2, Gets: 42},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
			r := NewSharedReads[string](SharedReadOptions{Fresh: fresh, Window: window, Now: func() time.Time { return clock }})
			f := &fakeScope{objects: objects()}
			s := Scope{Client: f, List: "objects?scope=a"}
			var got result
			for _, st := range tc.steps {
				clock = clock.Add(st.after)
				ctx := context.Background()
				if st.alone {
					ctx = ReadAlone(ctx)
				}
				switch {
				case st.set != nil:
					f.mu.Lock()
					for k, v := range st.set {
						f.objects[k] = v
					}
					f.mu.Unlock()
				case st.drop == "-":
					r.Drop(s)
				case st.drop != "":
					delete(f.objects, st.drop)
				case st.wrote[0] != "":
					r.Wrote(s, st.wrote[0], st.wrote[1])
				case st.forget != "":
					r.Forget(s, st.forget)
				case st.fail != nil:
					f.listErr = st.fail
				case st.match != "":
					src := f.source(st.match)
					found, ok := r.Match(ctx, s, "key:"+st.match, func(v string) bool { return src.ID(v) == st.match }, src)
					got.Reads = append(got.Reads, fmt.Sprintf("match %v %v", found, ok))
				case st.read != "":
					v, err := r.Get(ctx, s, st.read, f.source(st.read))
					if err != nil {
						v = "error: " + err.Error()
					}
					got.Reads = append(got.Reads, v)
				}
			}
			got.Reads = got.Reads[tc.skip:]
			got.Lists, got.Gets = f.lists, f.gets
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("reads, lists and single reads: -want +got:\n%s", diff)
			}
		})
	}
}

// TestSharedReadsConcurrentReadersShareOneList checks the single flight: readers that come
// while a list is in flight wait for it rather than start their own.
func TestSharedReadsConcurrentReadersShareOneList(t *testing.T) {
	r := NewSharedReads[string](SharedReadOptions{Fresh: time.Hour, Window: time.Hour})
	f := &fakeScope{objects: map[string]string{"a": "1", "b": "2"}}
	s := Scope{Client: f, List: "objects"}
	// One read alone first; with the next, the demand calls for a list.
	if _, err := r.Get(context.Background(), s, "a", f.source("a")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if v, err := r.Get(context.Background(), s, "b", f.source("b")); err != nil || v != "b=2" {
				t.Errorf("Get(b) = %q, %v; want b=2", v, err)
			}
		})
	}
	wg.Wait()
	if f.lists != 1 || f.gets != 1 {
		t.Errorf("lists, single reads = %d, %d; want 1, 1 (the 20 concurrent readers share one list)", f.lists, f.gets)
	}
}
