package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePPID(t *testing.T) {
	testParse(t, "parsePPID", parsePPID, map[string]parseCase[int]{
		"plain":            {in: "4321 (tofu) S 1234 4321 4321 0 -1 4194560 100 0 0 0 250 75", want: 1234},
		"name with spaces": {in: "4322 (terraform-provider (x) y) R 4321 4321 4321 0", want: 4321},
		"no parenthesis":   {in: "4321 tofu S 1", wantErr: true},
		"short":            {in: "4321 (tofu) S", wantErr: true},
		"not a number":     {in: "4321 (tofu) S x", wantErr: true},
	})
}

func TestDescendants(t *testing.T) {
	// 1 -> 10 (tofu) -> 11 (plugin) -> 12, 10 -> 13; 1 -> 20 is someone else's.
	parent := map[int]int{1: 0, 10: 1, 11: 10, 12: 11, 20: 1, 13: 10}
	cases := map[string]struct {
		root int
		want []int
	}{
		"tofu and its plugins": {root: 10, want: []int{10, 11, 12, 13}},
		"a leaf":               {root: 12, want: []int{12}},
		"exited":               {root: 99, want: []int{99}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, descendants(tc.root, parent)); diff != "" {
				t.Errorf("descendants(%d) -want +got:\n%s", tc.root, diff)
			}
		})
	}
}
