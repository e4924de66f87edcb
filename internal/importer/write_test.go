package importer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

// A directory written once is written the same the second time (nothing changes), and adopt
// mode reads back exactly the objects of the import's own files, ignoring other files.
func TestWriteAndReviewed(t *testing.T) {
	dir := t.TempDir()
	objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: team()}, Filter{Domain: "team", Kinds: []string{"domain", "group"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	for run, want := range []int{2, 0} {
		changed, err := write(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		if changed != want {
			t.Errorf("run %d: %d files written, want %d", run, changed, want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte("kind: ConfigMap\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "group-devs.yaml")); err != nil {
		t.Fatal(err)
	}
	got, found, err := reviewed(dir)
	if err != nil || !found {
		t.Fatalf("reviewed: %v, found %v", err, found)
	}
	if diff := cmp.Diff(map[string]map[string]bool{"Domain": {"dt": true}}, got); diff != "" {
		t.Errorf("reviewed (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(filepath.Join(dir, "domain-team.yaml"), []byte(header+"x\nnot: [yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reviewed(dir); err == nil {
		t.Error("reviewed: a damaged file of the import was read without an error")
	}
	if _, found, err := reviewed(filepath.Join(dir, "none")); err != nil || found {
		t.Errorf("reviewed of a missing directory: %v, found %v; want nothing", err, found)
	}
}
