package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites the golden files from the generator's output: go test ./hack/gen-cluster-scope -update.
var update = flag.Bool("update", false, "rewrite testdata/golden from the generator's output")

const testImport = "example.org/widgets/apis/namespaced/v1alpha1"

// TestGolden runs both passes of the generator over testdata/ns (a namespaced kind with a
// single reference, a list reference named by the IDs rule, one named by markers, a
// +namespaced-only and a +cluster-scope: line; and a kind without references) and compares
// every file it writes with testdata/golden.
func TestGolden(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	src, err := filepath.Glob("testdata/ns/*.go")
	if err != nil || len(src) == 0 {
		t.Fatalf("testdata/ns: %v (%d files)", err, len(src))
	}
	for _, f := range src {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(from, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	header := filepath.Join(t.TempDir(), "header.txt")
	if err := os.WriteFile(header, []byte("// Test header.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(from, to, testImport, header); err != nil {
		t.Fatalf("run: %v", err)
	}
	if err := references(from, "// Test header.\n", []string{from, to}); err != nil {
		t.Fatalf("references: %v", err)
	}

	// The references pass writes the same file into both packages.
	nsRefs, err := os.ReadFile(filepath.Join(from, "zz_generated.references.go"))
	if err != nil {
		t.Fatal(err)
	}
	clRefs, err := os.ReadFile(filepath.Join(to, "zz_generated.references.go"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(nsRefs), string(clRefs)); diff != "" {
		t.Errorf("references differ between the packages (-namespaced +cluster):\n%s", diff)
	}

	got, err := filepath.Glob(filepath.Join(to, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(got))
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	want := []string{"zz_generated.gadget_kind.go", "zz_generated.references.go", "zz_generated.shared.go", "zz_generated.widget_kind.go"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("files written (-want +got):\n%s", diff)
	}
	for _, n := range names {
		out, err := os.ReadFile(filepath.Join(to, n))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", n+".golden")
		if *update {
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		wantOut, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to write it)", err)
		}
		if diff := cmp.Diff(string(wantOut), string(out)); diff != "" {
			t.Errorf("%s (-golden +got):\n%s", n, diff)
		}
	}
}

// TestGenerateErrors covers the sources the generator refuses, each with a message naming the
// field and what to do.
func TestGenerateErrors(t *testing.T) {
	cases := map[string]struct {
		types, kind string
		refs        bool
		want        string
	}{
		"ReferenceOnAnInt": {
			types: "type P struct {\n\t// +identity:reference:type=W\n\tN *int `json:\"n\"`\n}\n",
			refs:  true,
			want:  "P.N: a reference must fill a *string or []string field, not *int",
		},
		"ListWithoutRefsField": {
			types: "type P struct {\n\t// +identity:reference:type=W\n\tParents []string `json:\"parents\"`\n\tParentSelector *xpv2.Selector\n}\n",
			refs:  true,
			want:  "P.Parents: no field ParentsRefs []xpv2.Reference next to it: add it, or name the field with +identity:reference:refFieldName=<Field>",
		},
		"ListWithASingleRefField": {
			types: "type P struct {\n\t// +identity:reference:type=W\n\tWIDs []string\n\tWRefs *xpv2.Reference\n\tWSelector *xpv2.Selector\n}\n",
			refs:  true,
			want:  "P.WIDs: field WRefs is *xpv2.Reference, the resolver needs []xpv2.Reference",
		},
		"SingleWithoutSelector": {
			types: "type P struct {\n\t// +identity:reference:type=W\n\tWID *string\n\tWRef *xpv2.Reference\n}\n",
			refs:  true,
			want:  "P.WID: no field WSelector *xpv2.Selector next to it",
		},
		"FieldNameWithoutType": {
			types: "type P struct {\n\t// +identity:reference:refFieldName=WRefs\n\tW []string\n}\n",
			refs:  true,
			want:  "P.W: +identity:reference:refFieldName= or +identity:reference:selectorFieldName= without +identity:reference:type=<Kind>",
		},
		"SharedTypeInKindFile": {
			types: "type P struct{}\n",
			kind:  "type P struct{}\n",
			want:  "declares shared type P: shared types belong in *_types.go",
		},
		"NamespacedOnlyAtTheEnd": {
			types: "type P struct{}\n",
			kind:  "type K struct{}\n\n// +namespaced-only\n",
			want:  "+namespaced-only drops the line after it, and there is none",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := t.TempDir()
			write := func(f, body string) {
				src := "package v1alpha1\n\nimport xpv2 \"github.com/crossplane/crossplane/apis/v2/core/v2\"\n\nvar _ xpv2.Selector\n\n" + body
				if err := os.WriteFile(filepath.Join(from, f), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("p_types.go", tc.types)
			if tc.kind != "" {
				write("k_kind.go", tc.kind)
			}
			var err error
			if tc.refs {
				err = references(from, "", []string{from})
			} else {
				err = run(from, t.TempDir(), testImport, "")
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error: got %v, want one containing %q", err, tc.want)
			}
		})
	}
}
