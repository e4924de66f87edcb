package main

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failAfter accepts n writes, then fails every one.
type failAfter struct {
	n      int
	writes []string
}

var errFull = errors.New("disk full")

func (f *failAfter) Write(b []byte) (int, error) {
	if len(f.writes) >= f.n {
		return 0, errFull
	}
	f.writes = append(f.writes, string(b))
	return len(b), nil
}

// TestErrWriter: the first error is kept and nothing is written after it, even when the
// writer would take it again.
func TestErrWriter(t *testing.T) {
	f := &failAfter{n: 1}
	ew := &errWriter{w: f}
	ew.printf("one %d\n", 1)
	ew.printf("two\n")
	f.n = 10
	ew.printf("three\n")
	if diff := cmp.Diff([]string{"one 1\n"}, f.writes); diff != "" {
		t.Errorf("writes -want +got:\n%s", diff)
	}
	if !errors.Is(ew.err, errFull) {
		t.Errorf("err = %v, want %v", ew.err, errFull)
	}
}

// TestSummaryWriteError: write reports its writer's failure instead of losing the summary quietly.
func TestSummaryWriteError(t *testing.T) {
	f := &failAfter{n: 2}
	if err := (result{N: 2, Resources: 7}).write(f); !errors.Is(err, errFull) {
		t.Errorf("write = %v, want %v", err, errFull)
	}
	if len(f.writes) != 2 {
		t.Errorf("%d lines written, want the 2 before the failure", len(f.writes))
	}
}
