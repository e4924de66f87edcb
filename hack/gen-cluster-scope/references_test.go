package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// References inside an optional block of the parameters are resolved, with the block's JSON
// path, only while the block is set.
func TestReferencesInsideABlock(t *testing.T) {
	dir := t.TempDir()
	src := `package v1alpha1

type StageSpec struct {
	ForProvider StageParameters ` + "`json:\"forProvider\"`" + `
}

type StageParameters struct {
	Name   string       ` + "`json:\"name\"`" + `
	Prompt *PromptBlock ` + "`json:\"prompt,omitempty\"`" + `
}

type PromptBlock struct {
	// +identity:reference:type=Prompt
	PromptIDs      []string         ` + "`json:\"promptIds,omitempty\"`" + `
	PromptRefs     []xpv2.Reference ` + "`json:\"promptRefs,omitempty\"`" + `
	PromptSelector *xpv2.Selector   ` + "`json:\"promptSelector,omitempty\"`" + `
}
`
	if err := os.WriteFile(filepath.Join(dir, "stage_kind.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	kinds, err := parseReferences(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []kindRefs{{kind: "Stage", refs: []ref{{Value: "PromptIDs", Ref: "PromptRefs", Selector: "PromptSelector", To: "Prompt",
		JSON: "prompt.promptIds", Multiple: true, Parent: "Prompt"}}}}
	if diff := cmp.Diff(want, kinds, cmp.AllowUnexported(kindRefs{})); diff != "" {
		t.Fatalf("references: -want, +got:\n%s", diff)
	}
	out := string(renderReferences("", kinds))
	for _, w := range []string{"if fp.Prompt != nil {", "CurrentValues: fp.Prompt.PromptIDs", `"spec.forProvider.prompt.promptIds"`} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
}
