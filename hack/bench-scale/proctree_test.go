package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePPID(t *testing.T) {
	cases := map[string]struct {
		stat    string
		want    int
		wantErr bool
	}{
		"plain":            {stat: "4321 (tofu) S 1234 4321 4321 0 -1 4194560 100 0 0 0 250 75", want: 1234},
		"name with spaces": {stat: "4322 (terraform-provider (x) y) R 4321 4321 4321 0", want: 4321},
		"no parenthesis":   {stat: "4321 tofu S 1", wantErr: true},
		"short":            {stat: "4321 (tofu) S", wantErr: true},
		"not a number":     {stat: "4321 (tofu) S x", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parsePPID(tc.stat)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parsePPID: error %v, want error %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("parsePPID: got %d, want %d", got, tc.want)
			}
		})
	}
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
