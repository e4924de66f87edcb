package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSkip(t *testing.T) {
	cases := map[string]struct {
		in      string
		want    map[string]bool
		wantErr bool
	}{
		"none":        {in: "", want: map[string]bool{}},
		"some":        {in: "floor, delete", want: map[string]bool{"floor": true, "delete": true}},
		"tofu":        {in: "tofu", want: map[string]bool{"tofu": true}},
		"apply":       {in: "apply", wantErr: true},
		"unknown":     {in: "floor,steadyy", wantErr: true},
		"empty items": {in: "drift,,", want: map[string]bool{"drift": true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseSkip(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseSkip(%q): error %v, want error %v", tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseSkip(%q): -want, +got:\n%s", tc.in, diff)
			}
		})
	}
}

func TestPprofAddr(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"none":  {args: []string{"--debug"}, want: ""},
		"given": {args: []string{"--debug", "--pprof-bind-address=127.0.0.1:6060"}, want: "127.0.0.1:6060"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := pprofAddr(tc.args); got != tc.want {
				t.Errorf("pprofAddr(%v): want %q, got %q", tc.args, tc.want, got)
			}
		})
	}
}

func TestGoEnv(t *testing.T) {
	t.Setenv("GOGC", "200")
	t.Setenv("GOMEMLIMIT", "1GiB")
	got := goEnv([]string{"GOMEMLIMIT=64MiB", "OTHER=1"})
	if diff := cmp.Diff([]string{"GOGC=200", "GOMEMLIMIT=64MiB"}, got); diff != "" {
		t.Errorf("goEnv: -want, +got:\n%s", diff)
	}
}
