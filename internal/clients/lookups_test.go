package clients

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSharedLookups(t *testing.T) {
	const fresh = 3 * time.Second
	errDown := errors.New("down")
	type step struct {
		after time.Duration
		key   string // look this key up and note what came back
		set   string // the system's answer changes to this (a flow made again)
		fail  bool   // the system fails from now on
		heal  bool   // the system answers again
		alone bool   // look up with a ReadAlone context
	}
	type result struct {
		Answers []string
		Fetches int
	}
	cases := map[string]struct {
		fresh time.Duration
		steps []step
		want  result
	}{
		"ZeroFreshSharesNothing": {
			fresh: 0,
			steps: []step{{key: "a"}, {key: "a"}, {key: "a"}},
			want:  result{Answers: []string{"a:v1", "a:v1", "a:v1"}, Fetches: 3},
		},
		"FreshAnswerShared": {
			fresh: fresh,
			steps: []step{{key: "a"}, {after: time.Second, key: "a"}, {after: time.Second, key: "a"}},
			want:  result{Answers: []string{"a:v1", "a:v1", "a:v1"}, Fetches: 1},
		},
		"KeyedByRequest": {
			fresh: fresh,
			steps: []step{{key: "a"}, {key: "b"}, {key: "a"}, {key: "b"}},
			want:  result{Answers: []string{"a:v1", "b:v1", "a:v1", "b:v1"}, Fetches: 2},
		},
		"ChangeSeenAfterFresh": {
			fresh: fresh,
			steps: []step{
				{key: "a"}, {set: "v2"}, {after: time.Second, key: "a"},
				{after: fresh, key: "a"}, {after: time.Second, key: "a"},
			},
			want: result{Answers: []string{"a:v1", "a:v1", "a:v2", "a:v2"}, Fetches: 2},
		},
		"ReadAloneFetches": {
			fresh: fresh,
			steps: []step{{key: "a"}, {set: "v2"}, {key: "a", alone: true}, {key: "a"}},
			want:  result{Answers: []string{"a:v1", "a:v2", "a:v1"}, Fetches: 2},
		},
		"FailureNeverKept": {
			fresh: fresh,
			steps: []step{
				{fail: true}, {key: "a"}, {key: "a"}, {heal: true}, {key: "a"}, {after: time.Second, key: "a"},
			},
			want: result{Answers: []string{"a:down", "a:down", "a:v1", "a:v1"}, Fetches: 3},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			clock := time.Unix(1000, 0)
			value, failing, got := "v1", false, result{}
			var mu sync.Mutex
			l := &SharedLookups[string]{Fresh: tc.fresh, Now: func() time.Time { return clock }}
			client := new(int)
			for _, s := range tc.steps {
				clock = clock.Add(s.after)
				switch {
				case s.set != "":
					value = s.set
				case s.fail:
					failing = true
				case s.heal:
					failing = false
				case s.key != "":
					key := s.key
					ctx := context.Background()
					if s.alone {
						ctx = ReadAlone(ctx)
					}
					v, err := l.Get(ctx, Scope{Client: client, List: key}, func(context.Context) (string, error) {
						mu.Lock()
						defer mu.Unlock()
						got.Fetches++
						if failing {
							return "", errDown
						}
						return key + ":" + value, nil
					})
					if err != nil {
						v = key + ":" + err.Error()
					}
					got.Answers = append(got.Answers, v)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answers and fetches (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSharedLookupsSingleFlight: lookups of one key made while it is in flight wait for it, and
// a reader that gives up does not fail the others.
func TestSharedLookupsSingleFlight(t *testing.T) {
	l := &SharedLookups[string]{Fresh: time.Second}
	release, started := make(chan struct{}), make(chan struct{}, 10)
	var mu sync.Mutex
	fetches := 0
	fetch := func(ctx context.Context) (string, error) {
		mu.Lock()
		fetches++
		mu.Unlock()
		started <- struct{}{}
		<-release
		return "pk", ctx.Err()
	}
	key := Scope{Client: new(int), List: "flows/instances/x/"}
	gaveUp, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := l.Get(gaveUp, key, fetch)
		errs <- err
	}()
	<-started
	var wg sync.WaitGroup
	answers := make([]string, 5)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := l.Get(context.Background(), key, fetch)
			if err != nil {
				v = err.Error()
			}
			answers[i] = v
		}()
	}
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("reader that gave up: %v, want context.Canceled", err)
	}
	time.Sleep(50 * time.Millisecond) // let the others join the lookup in flight
	close(release)
	wg.Wait()
	if diff := cmp.Diff([]string{"pk", "pk", "pk", "pk", "pk"}, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if fetches != 1 {
		t.Errorf("fetches: %d, want 1", fetches)
	}
}

// ReadObjectsAlone sends a read of an object to the system, where a write's answer would have
// answered it, and leaves the lookups that turn names into IDs shared; ReadAlone sends both.
func TestReadObjectsAloneLeavesLookupsShared(t *testing.T) {
	cases := map[string]struct {
		ctx                       func(context.Context) context.Context
		objectAlone, lookupsAlone bool
	}{
		"Shared":           {ctx: func(ctx context.Context) context.Context { return ctx }},
		"ReadObjectsAlone": {ctx: ReadObjectsAlone, objectAlone: true},
		"ReadAlone":        {ctx: ReadAlone, objectAlone: true, lookupsAlone: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := tc.ctx(context.Background())
			reads := NewSharedReads[string](SharedReadOptions{Fresh: time.Minute, Window: time.Minute})
			s := Scope{Client: "c", List: "objects"}
			reads.Wrote(s, "x", "written")
			v, err := reads.Get(ctx, s, "x", Source[string]{
				Get: func(context.Context) (string, error) { return "read", nil },
				ID:  func(v string) string { return v },
			})
			if err != nil {
				t.Fatal(err)
			}
			if alone := v == "read"; alone != tc.objectAlone {
				t.Errorf("object read from the system: %v, want %v", alone, tc.objectAlone)
			}
			lookups := SharedLookups[string]{Fresh: time.Minute}
			fetches := 0
			fetch := func(context.Context) (string, error) { fetches++; return "id", nil }
			for range 2 {
				if _, err := lookups.Get(ctx, s, fetch); err != nil {
					t.Fatal(err)
				}
			}
			if alone := fetches == 2; alone != tc.lookupsAlone {
				t.Errorf("each lookup asked the system: %v (%d fetches), want %v", alone, fetches, tc.lookupsAlone)
			}
		})
	}
}
