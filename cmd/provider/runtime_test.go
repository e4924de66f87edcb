package main

import (
	"errors"
	"io/fs"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	const v2, v1 = "/v2/memory.max", "/v1/memory.limit_in_bytes"
	files := []string{v2, v1}
	cases := map[string]struct {
		env        map[string]string
		contents   map[string]string
		percentage int
		want       int64
	}{
		"CgroupV2Limit": {
			contents:   map[string]string{v2: "268435456\n"},
			percentage: 90,
			want:       268435456 / 100 * 90,
		},
		"CgroupV1Limit": {
			contents:   map[string]string{v1: "104857600\n"},
			percentage: 90,
			want:       104857600 / 100 * 90,
		},
		"CgroupV2WithoutLimitFallsBackToV1": {
			contents:   map[string]string{v2: "max\n", v1: "104857600\n"},
			percentage: 50,
			want:       104857600 / 2,
		},
		"CgroupV1WithoutLimit": {
			contents:   map[string]string{v1: "9223372036854771712\n"},
			percentage: 90,
		},
		"NoCgroupFiles": {
			percentage: 90,
		},
		"Garbage": {
			contents:   map[string]string{v2: "lots\n"},
			percentage: 90,
		},
		"GOMEMLIMITWins": {
			env:        map[string]string{"GOMEMLIMIT": "80MiB"},
			contents:   map[string]string{v2: "268435456\n"},
			percentage: 90,
		},
		"Off": {
			contents: map[string]string{v2: "268435456\n"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			read := func(f string) ([]byte, error) {
				if c, ok := tc.contents[f]; ok {
					return []byte(c), nil
				}
				return nil, &fs.PathError{Op: "open", Path: f, Err: errors.New("no such file")}
			}
			if got := memoryLimit(getenv, read, files, tc.percentage); got != tc.want {
				t.Errorf("memoryLimit: want %d, got %d", tc.want, got)
			}
		})
	}
}

func TestGCPercent(t *testing.T) {
	cases := map[string]struct {
		env  map[string]string
		flag int
		want int
	}{
		"FromTheFlag": {flag: 50, want: 50},
		"GOGCWins":    {env: map[string]string{"GOGC": "100"}, flag: 50},
		"GOGCOffWins": {env: map[string]string{"GOGC": "off"}, flag: 50},
		"GoDefault":   {flag: 100, want: 100},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			if got := gcPercent(getenv, tc.flag); got != tc.want {
				t.Errorf("gcPercent: want %d, got %d", tc.want, got)
			}
		})
	}
}
