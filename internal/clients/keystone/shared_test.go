package keystone_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

type thing struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

var things = keystone.Collection[thing]{Path: "things", Singular: "thing", Plural: "things"}

// TestSharedKeystoneCalls checks which calls the Shared collection makes: single reads while
// few resources read, one list of the scope once many do, none after our own write, and single
// reads again after a list Keystone cut short.
func TestSharedKeystoneCalls(t *testing.T) {
	const fresh, window = 3 * time.Second, time.Minute
	inD1 := url.Values{"domain_id": {"d1"}}
	list := func(n int, extra string) string {
		items := make([]string, 0, n)
		for i := range n {
			items = append(items, fmt.Sprintf(`{"id": "t%d", "name": "n%d"}`, i, i))
		}
		return `{"things": [` + strings.Join(items, ",") + `]` + extra + `}`
	}
	answers := func() map[string]keystonetest.Answer {
		a := map[string]keystonetest.Answer{
			"POST things":             {Status: 201, Body: `{"thing": {"id": "new", "name": "made"}}`},
			"PATCH things/t1":         {Body: `{"thing": {"id": "t1", "name": "renamed"}}`},
			"PATCH things/t2":         {Body: `{}`},
			"GET things/new":          keystonetest.NotFound,
			"DELETE things/t3":        {Status: 204},
			"GET things?domain_id=d1": {Body: list(40, "")},
		}
		for i := range 40 {
			a[fmt.Sprintf("GET things/t%d", i)] = keystonetest.Answer{Body: fmt.Sprintf(`{"thing": {"id": "t%d", "name": "n%d"}}`, i, i)}
		}
		return a
	}
	type op struct {
		after time.Duration
		do    func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string
	}
	read := func(id string) op {
		return op{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
			v, err := s.Get(ctx, api, inD1, id)
			if err != nil {
				return "error"
			}
			return v.Name
		}}
	}
	// busy reads the 40 things one second apart: the 40th read lists.
	busy := func() []op {
		ops := make([]op, 0, 40)
		for i := range 40 {
			o := read(fmt.Sprintf("t%d", i))
			o.after = time.Second
			ops = append(ops, o)
		}
		return ops
	}
	cases := map[string]struct {
		ops       []op
		truncated bool
		// want are the results and calls after the busy part's.
		want      []string
		wantCalls []string
	}{
		"ManyReadersShareAList": {
			ops:       append(busy(), read("t1"), read("t39")),
			want:      []string{"n1", "n39"},
			wantCalls: []string{"GET things?domain_id=d1"},
		},
		"FindInDomainFromTheList": {
			ops: append(busy(), op{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
				found, err := s.FindInDomain(ctx, api, inD1, keystone.NameInDomain{Name: "n5", DomainID: "d1"}, func(v thing) keystone.NameInDomain {
					return keystone.NameInDomain{Name: v.Name, DomainID: "d1"}
				})
				return fmt.Sprint(found, err)
			}}),
			want:      []string{"[{t5 n5}] <nil>"},
			wantCalls: []string{"GET things?domain_id=d1"},
		},
		"CreateAnswersTheNextRead": {
			ops: []op{{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
				v, err := s.Create(ctx, api, inD1, map[string]string{"name": "made"})
				return v.ID + fmt.Sprint(err)
			}}, read("new")},
			want:      []string{"new<nil>", "made"},
			wantCalls: []string{`POST things {"thing":{"name":"made"}}`},
		},
		"UpdateAnswersTheNextRead": {
			ops: append(busy(), op{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
				return fmt.Sprint(s.Update(ctx, api, inD1, "t1", map[string]string{"name": "renamed"}))
			}}, read("t1")),
			want:      []string{"<nil>", "renamed"},
			wantCalls: []string{"GET things?domain_id=d1", `PATCH things/t1 {"thing":{"name":"renamed"}}`},
		},
		"UpdateWithoutTheObjectIsReadAlone": {
			ops: append(busy(), op{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
				return fmt.Sprint(s.Update(ctx, api, inD1, "t2", map[string]string{"name": "x"}))
			}}, read("t2")),
			want:      []string{"<nil>", "n2"},
			wantCalls: []string{"GET things?domain_id=d1", `PATCH things/t2 {"thing":{"name":"x"}}`, "GET things/t2"},
		},
		"DeletedIsReadAlone": {
			ops: append(busy(), op{do: func(ctx context.Context, s keystone.Shared[thing], api keystone.API) string {
				return fmt.Sprint(s.Delete(ctx, api, inD1, "t3"))
			}}, read("t3")),
			want:      []string{"<nil>", "n3"},
			wantCalls: []string{"GET things?domain_id=d1", "DELETE things/t3", "GET things/t3"},
		},
		"TruncatedListFallsBackToSingleReads": {
			truncated: true,
			ops:       append(busy(), op{after: fresh + time.Millisecond, do: read("t1").do}),
			want:      []string{"n1"},
			wantCalls: []string{"GET things?domain_id=d1", "GET things/t39", "GET things/t1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
			s := keystone.NewShared(things, func(v thing) string { return v.ID },
				clients.SharedReadOptions{Fresh: fresh, Window: window, Now: func() time.Time { return clock }})
			a := answers()
			if tc.truncated {
				a["GET things?domain_id=d1"] = keystonetest.Answer{Body: list(10, `, "truncated": true`)}
			}
			api := &keystonetest.API{Answers: a}
			got := make([]string, 0, len(tc.ops))
			skip := 0
			for i, o := range tc.ops {
				clock = clock.Add(o.after)
				got = append(got, o.do(context.Background(), s, api))
				if i < 40 && o.after == time.Second {
					skip = i + 1
				}
			}
			calls := api.Calls()
			// The busy part: 39 single reads before the demand calls for a list.
			if skip == 40 {
				calls = calls[39:]
			}
			if diff := cmp.Diff(tc.want, got[skip:]); diff != "" {
				t.Errorf("results: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantCalls, calls); diff != "" {
				t.Errorf("calls to Keystone: -want +got:\n%s", diff)
			}
		})
	}
}
