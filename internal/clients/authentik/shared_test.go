package authentik

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// fakeKind is a kind of authentik objects ("id=value"), listed two per page, counting requests.
type fakeKind struct {
	objects map[string]string
	listErr error
	pages   int
	gets    int
}

func (f *fakeKind) page(_ context.Context, _ *api.APIClient, page, size int32) ([]string, int32, *http.Response, error) {
	f.pages++
	if size != SharedPageSize {
		return nil, 0, nil, &Error{Status: http.StatusBadRequest, Message: "page size"}
	}
	if f.listErr != nil {
		return nil, 0, nil, f.listErr
	}
	ids := make([]string, 0, len(f.objects))
	for id := range f.objects {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []string
	for _, id := range ids[min(len(ids), int(page-1)*2):min(len(ids), int(page)*2)] {
		out = append(out, id+"="+f.objects[id])
	}
	next := page + 1
	if int(page)*2 >= len(ids) {
		next = 0
	}
	return out, next, nil, nil
}

func (f *fakeKind) get(id string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		f.gets++
		v, ok := f.objects[id]
		if !ok {
			return "", &Error{Status: http.StatusNotFound, Message: "GET " + id + ": 404"}
		}
		return id + "=" + v, nil
	}
}

func TestShared(t *testing.T) {
	const fresh = 3 * time.Second
	type step struct {
		after  time.Duration
		read   string // read this ID and note what came back
		set    [2]string
		drop   string
		wrote  [2]string // our own write's answer
		failed string    // our own write failed
		down   bool      // lists fail from now on (an outage: not refused)
	}
	type result struct {
		Reads []string
		Pages int
		Gets  int
	}
	cases := map[string]struct {
		nilShared bool
		steps     []step
		want      result
	}{
		"NilSharesNothing": {
			nilShared: true,
			steps:     []step{{read: "a"}, {read: "b"}, {read: "c"}, {read: "a"}},
			want:      result{Reads: []string{"a=1", "b=2", "c=3", "a=1"}, Gets: 4},
		},
		"ListOfAllPagesAnswersWhileFresh": {
			steps: []step{{read: "a"}, {read: "b"}, {read: "c"}, {read: "a"}, {after: time.Second, read: "b"}},
			// a is read alone; with b, demand lists the kind (2 pages) for the rest.
			want: result{Reads: []string{"a=1", "b=2", "c=3", "a=1", "b=2"}, Pages: 2, Gets: 1},
		},
		"ChangeByHandSeenAfterFresh": {
			steps: []step{{read: "a"}, {read: "b"}, {read: "c"}, {set: [2]string{"a", "9"}}, {read: "a"}, {after: fresh + time.Second, read: "a"}},
			// The list answers a=1 while fresh; after it, a is read (alone: one read is no demand).
			want: result{Reads: []string{"a=1", "b=2", "c=3", "a=1", "a=9"}, Pages: 2, Gets: 2},
		},
		"MissingFromListReadAlone": {
			steps: []step{{drop: "c"}, {read: "a"}, {read: "b"}, {read: "c"}},
			want:  result{Reads: []string{"a=1", "b=2", "GET c: 404"}, Pages: 1, Gets: 2},
		},
		"OwnWriteAnswersAndFailedWriteForgets": {
			steps: []step{
				{read: "a"}, {read: "b"}, {read: "c"},
				{set: [2]string{"a", "5"}}, {wrote: [2]string{"a", "5"}}, {read: "a"},
				{set: [2]string{"b", "6"}}, {failed: "b"}, {read: "b"},
			},
			// b's failed write may have changed it: the list from before does not answer for it.
			want: result{Reads: []string{"a=1", "b=2", "c=3", "a=5", "b=6"}, Pages: 2, Gets: 2},
		},
		"OutageFailsTheListNotTheReads": {
			steps: []step{{down: true}, {read: "a"}, {read: "b"}, {read: "c"}},
			// The failed list answers nothing: its reads, and those while it is fresh, are made alone.
			want: result{Reads: []string{"a=1", "b=2", "c=3"}, Pages: 1, Gets: 3},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			clock := time.Unix(1000, 0)
			f := &fakeKind{objects: map[string]string{"a": "1", "b": "2", "c": "3"}}
			id := func(s string) string { return strings.SplitN(s, "=", 2)[0] }
			s := NewShared(clients.SharedReadOptions{Fresh: fresh, Window: fresh, Now: func() time.Time { return clock }}, "things/", f.page, id)
			if tc.nilShared {
				s = nil
			}
			c := api.NewAPIClient(api.NewConfiguration())
			var got result
			for _, st := range tc.steps {
				clock = clock.Add(st.after)
				switch {
				case st.read != "":
					v, err := s.Get(context.Background(), c, st.read, f.get(st.read))
					if err != nil {
						v = err.Error()
					}
					got.Reads = append(got.Reads, v)
				case st.set[0] != "":
					f.objects[st.set[0]] = st.set[1]
				case st.drop != "":
					delete(f.objects, st.drop)
				case st.wrote[0] != "":
					v := st.wrote[0] + "=" + st.wrote[1]
					s.Wrote(c, st.wrote[0], &v, nil)
				case st.failed != "":
					s.Wrote(c, st.failed, nil, &Error{Status: http.StatusBadGateway})
				case st.down:
					f.listErr = &Error{Status: http.StatusBadGateway, Message: "502"}
				}
			}
			got.Pages, got.Gets = f.pages, f.gets
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("reads and requests (-want +got):\n%s", diff)
			}
		})
	}
}
