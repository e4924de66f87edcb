package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSerialTests(t *testing.T) {
	got, err := serialTests("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TestAnotherSerial", "TestSerial"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("serialTests(testdata): -want +got:\n%s", diff)
	}
}
