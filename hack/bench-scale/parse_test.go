package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A parseCase is one input of a /proc parser and what it should give.
type parseCase[T comparable] struct {
	in      string
	want    T
	wantErr bool
}

// testParse runs parse, named name in messages, over cases.
func testParse[T comparable](t *testing.T, name string, parse func(string) (T, error), cases map[string]parseCase[T]) {
	t.Helper()
	for cn, tc := range cases {
		t.Run(cn, func(t *testing.T) {
			got, err := parse(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s(%q): error %v, want error: %v", name, tc.in, err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("%s(%q): got %v, want %v", name, tc.in, got, tc.want)
			}
		})
	}
}

func TestParseCPUTicks(t *testing.T) {
	testParse(t, "parseCPUTicks", parseCPUTicks, map[string]parseCase[uint64]{
		"plain":            {in: "1234 (provider) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 12 0 500 0 0", want: 325},
		"name with spaces": {in: "1234 (a (b) c) R 1 1234 1234 0 -1 0 0 0 0 0 7 3 0 0", want: 10},
		"no parenthesis":   {in: "1234 provider S 1", wantErr: true},
		"short":            {in: "1234 (p) S 1 2 3", wantErr: true},
		"not a number":     {in: "1234 (p) S 1 1 1 0 -1 0 0 0 0 0 x 3 0 0", wantErr: true},
	})
}

func TestParseMemory(t *testing.T) {
	cases := map[string]struct {
		status  string
		want    memory
		wantErr bool
	}{
		"RSSAndAnonymous": {status: "Name:\tprovider\nVmHWM:\t  90000 kB\nVmRSS:\t   81920 kB\nRssAnon:\t 1024 kB\nRssFile:\t 80896 kB\n",
			want: memory{RSS: 81920 * 1024, Anon: 1024 * 1024}},
		"NoRssAnonLine":         {status: "VmRSS:\t 8 kB\n", want: memory{RSS: 8 * 1024}},
		"ZombieHasNoVmRSS":      {status: "Name:\tzombie\n", wantErr: true},
		"UnreadableNumberFails": {status: "VmRSS:\t lots kB\n", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseMemory(tc.status)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseMemory: error %v, want error: %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("parseMemory: got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseFloor(t *testing.T) {
	cases := map[string]struct {
		out     string
		want    floorResult
		wantErr bool
	}{
		"summary line": {
			out: "floor op=workload_create c=10 n=200 ...\nFLOOR n=200 workload_c10_create_s=19.04 workload_c10_wps=26.4 workload_c10_delete_s=32.80 errors=0\n",
			want: floorResult{Create: 19040 * time.Millisecond, Delete: 32800 * time.Millisecond,
				Line: "FLOOR n=200 workload_c10_create_s=19.04 workload_c10_wps=26.4 workload_c10_delete_s=32.80 errors=0"},
		},
		"no FLOOR line":      {out: "floor op=workload_create c=10\n", wantErr: true},
		"workload skipped":   {out: "FLOOR n=200 proj_create_c1_wps=20.0 errors=0\n", wantErr: true},
		"not a number":       {out: "FLOOR workload_c10_create_s=x workload_c10_delete_s=1\n", wantErr: true},
		"other client count": {out: "FLOOR workload_c4_create_s=1 workload_c4_delete_s=1\n", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseFloor(tc.out)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseFloor: error %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseFloor -want +got:\n%s", diff)
			}
		})
	}
}
