package clients

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCacheGet(t *testing.T) {
	errBuild := errors.New("cannot connect")
	type call struct {
		key      string
		after    time.Duration // the clock moves on by this much before the call
		buildErr error
		refresh  bool
	}
	type result struct {
		Value  string
		Err    string
		Builds int
	}
	backoff := func(failures int, at string) string {
		return errBuild.Error() + " (failed " + strconv.Itoa(failures) + " time(s) in a row; the provider tries again after " + at
	}
	cases := map[string]struct {
		calls []call
		want  []result
	}{
		"BuiltOncePerKey": {
			calls: []call{{key: "a"}, {key: "a"}, {key: "b"}},
			want:  []result{{Value: "a1", Builds: 1}, {Value: "a1", Builds: 1}, {Value: "b2", Builds: 2}},
		},
		"FailedBuildIsNotKept": {
			calls: []call{{key: "a", buildErr: errBuild}, {key: "a", after: FirstRetryDelay}},
			want:  []result{{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1}, {Value: "a2", Builds: 2}},
		},
		"FailureNotRetriedWithinBackoff": {
			calls: []call{{key: "a", buildErr: errBuild}, {key: "a", after: 4 * time.Second}, {key: "a", refresh: true}},
			want: []result{
				{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1},
				{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1},
				{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1},
			},
		},
		"BackoffDoubles": {
			calls: []call{
				{key: "a", buildErr: errBuild},
				{key: "a", after: 5 * time.Second, buildErr: errBuild},
				{key: "a", after: 9 * time.Second},
				{key: "a", after: 1 * time.Second, buildErr: errBuild},
			},
			want: []result{
				{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1},
				{Err: backoff(2, "2026-12-01T08:00:15Z"), Builds: 2},
				{Err: backoff(2, "2026-12-01T08:00:15Z"), Builds: 2},
				{Err: backoff(3, "2026-12-01T08:00:35Z"), Builds: 3},
			},
		},
		"SuccessResets": {
			calls: []call{
				{key: "a", buildErr: errBuild},
				{key: "a", after: 5 * time.Second},
				{key: "a", refresh: true, buildErr: errBuild},
			},
			want: []result{
				{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1},
				{Value: "a2", Builds: 2},
				{Err: backoff(1, "2026-12-01T08:00:10Z"), Builds: 3},
			},
		},
		"NewKeyStartsAfresh": {
			calls: []call{{key: "wrong", buildErr: errBuild}, {key: "fixed"}},
			want:  []result{{Err: backoff(1, "2026-12-01T08:00:05Z"), Builds: 1}, {Value: "fixed2", Builds: 2}},
		},
		"RefreshRebuildsAKeptClient": {
			calls: []call{{key: "a"}, {key: "a", refresh: true}, {key: "a"}},
			want:  []result{{Value: "a1", Builds: 1}, {Value: "a2", Builds: 2}, {Value: "a2", Builds: 2}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
			c := Cache[string]{Now: func() time.Time { return now }}
			builds := 0
			got := make([]result, 0, len(tc.calls))
			for _, call := range tc.calls {
				now = now.Add(call.after)
				get := c.Get
				if call.refresh {
					get = c.Refresh
				}
				v, err := get(call.key, func() (string, error) {
					builds++
					if call.buildErr != nil {
						return "unused", call.buildErr
					}
					return call.key + strconv.Itoa(builds), nil
				})
				r := result{Value: v, Builds: builds}
				if err != nil {
					r.Err, _, _ = strings.Cut(err.Error(), ", or at once")
					if !errors.Is(err, errBuild) {
						t.Errorf("error %v does not wrap the build's", err)
					}
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	got := []time.Duration{}
	for n := 1; n <= 9; n++ {
		got = append(got, retryDelay(n))
	}
	s := time.Second
	want := []time.Duration{5 * s, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s, 300 * s}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// A slow build of one key does not delay another key, and concurrent callers of one key share
// one build.
func TestCacheLocksPerKey(t *testing.T) {
	var c Cache[string]
	release := make(chan struct{})
	slowStarted := make(chan struct{})
	var slowBuilds int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Get("slow", func() (string, error) {
				mu.Lock()
				slowBuilds++
				mu.Unlock()
				close(slowStarted)
				<-release
				return "s", nil
			})
		}()
	}
	<-slowStarted
	done := make(chan string)
	go func() {
		v, _ := c.Get("fast", func() (string, error) { return "f", nil })
		done <- v
	}()
	select {
	case v := <-done:
		if v != "f" {
			t.Errorf("fast key: got %q", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a slow build of one key blocked another key")
	}
	close(release)
	wg.Wait()
	if slowBuilds != 1 {
		t.Errorf("concurrent callers of one key built %d clients, want 1", slowBuilds)
	}
}
