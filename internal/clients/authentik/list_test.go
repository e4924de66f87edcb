package authentik

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

func TestListAll(t *testing.T) {
	errBoom := errors.New("boom")
	type page struct {
		items []int
		next  int32
		err   error
	}
	cases := map[string]struct {
		pages     map[int32]page
		want      []int
		wantErr   string
		wantCalls []int32
	}{
		"OnePage": {
			pages:     map[int32]page{1: {items: []int{1, 2}}},
			want:      []int{1, 2},
			wantCalls: []int32{1},
		},
		"Empty": {
			pages:     map[int32]page{1: {}},
			want:      nil,
			wantCalls: []int32{1},
		},
		"ThreePages": {
			pages:     map[int32]page{1: {items: []int{1}, next: 2}, 2: {items: []int{2}, next: 3}, 3: {items: []int{3}}},
			want:      []int{1, 2, 3},
			wantCalls: []int32{1, 2, 3},
		},
		"FailedPageEndsTheListing": {
			pages:     map[int32]page{1: {items: []int{1}, next: 2}, 2: {err: errBoom}},
			wantErr:   "cannot list page 2: boom",
			wantCalls: []int32{1, 2},
		},
		"NextPageDoesNotAdvance": {
			pages:     map[int32]page{1: {items: []int{1}, next: 2}, 2: {items: []int{2}, next: 2}},
			wantErr:   "listing did not advance: page 2 named page 2 as the next one",
			wantCalls: []int32{1, 2},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var calls []int32
			got, err := ListAll(context.Background(), func(p int32) ([]int, int32, error) {
				calls = append(calls, p)
				pg := tc.pages[p]
				return pg.items, pg.next, pg.err
			})
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("ListAll(...): want error %q, got %v", tc.wantErr, err)
				}
				if got != nil {
					t.Errorf("ListAll(...): want no items with an error, got %v", got)
				}
			} else if err != nil {
				t.Fatalf("ListAll(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ListAll(...): -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantCalls, calls); diff != "" {
				t.Errorf("pages fetched: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestListAllIsBounded(t *testing.T) {
	calls := 0
	_, err := ListAll(context.Background(), func(p int32) ([]int, int32, error) {
		calls++
		return []int{int(p)}, p + 1, nil
	})
	if err == nil || !strings.Contains(err.Error(), "did not end after") {
		t.Fatalf("ListAll(endless): want the bound's error, got %v", err)
	}
	if calls != MaxPages {
		t.Errorf("ListAll(endless): want %d pages fetched, got %d", MaxPages, calls)
	}
}

func TestListAllStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := ListAll(ctx, func(p int32) ([]int, int32, error) {
		calls++
		cancel()
		return nil, p + 1, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ListAll(cancelled): want context.Canceled, got %v", err)
	}
	if calls != 1 {
		t.Errorf("ListAll(cancelled): want 1 page fetched, got %d", calls)
	}
}

func TestNextPage(t *testing.T) {
	if got := NextPage(api.Pagination{Next: 3}); got != 3 {
		t.Errorf("NextPage(next=3): want 3, got %d", got)
	}
	if got := NextPage(api.Pagination{Next: 0}); got != 0 {
		t.Errorf("NextPage(last): want 0, got %d", got)
	}
}

func TestMayHaveCommitted(t *testing.T) {
	cases := map[string]struct {
		err  error
		want bool
	}{
		"NoAnswer":      {err: &Error{Status: 0, Message: "connection reset"}, want: true},
		"Answered502":   {err: &Error{Status: 502, Message: "bad gateway"}, want: true},
		"Refused400":    {err: &Error{Status: 400, Message: "slug taken"}},
		"NotACallError": {err: errors.New("spec.forProvider.name is invalid")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := MayHaveCommitted(tc.err); got != tc.want {
				t.Errorf("MayHaveCommitted(%v): got %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
