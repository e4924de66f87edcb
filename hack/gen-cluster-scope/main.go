// Command gen-cluster-scope writes the cluster-scoped (legacy) kinds of an API group from the
// namespaced kinds they mirror, so that both scopes come from one source (see
// docs/adr/0005-crossplane-v2-scopes.md).
//
// The source package holds two kinds of files:
//   - *_types.go: what both scopes share (parameters, observations, the driver's accessor
//     interface). The cluster package refers to these types; it never copies them, so a driver
//     written against them serves both scopes. gen-cluster-scope writes type aliases for them
//     into the cluster package, so that its import path keeps naming them.
//   - *_kind.go: the namespaced kind (spec, status, object, list, accessors, ResolveReferences).
//     gen-cluster-scope copies each into the cluster package as zz_generated.<file>, with the
//     shared types qualified by the source package and the few scope differences rewritten
//     (see rewrites).
//
// With -references, it writes instead the ResolveReferences methods of both packages' kinds
// (see references.go): they need the Managed method set, so they come after angryjet.
//
// Usage: go run ./hack/gen-cluster-scope [-references] -from <dir> -to <dir> -import <source import path>
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// alias is the name under which cluster packages import their namespaced source.
const alias = "ns"

// rewrites turn a namespaced kind into its cluster-scoped twin. Everything else is the same:
// references carry no namespace in either scope, and are resolved in the resource's own
// namespace (none for a cluster-scoped resource).
var rewrites = []struct{ from, to string }{
	// Cluster-scoped kinds have deletionPolicy, an untyped providerConfigRef to the legacy
	// ProviderConfig, and a connection secret reference with a namespace.
	{"xpv2.ManagedResourceSpec", "xpv2.ClusterManagedResourceSpec"},
	{"+kubebuilder:resource:scope=Namespaced", "+kubebuilder:resource:scope=Cluster"},
	// Lines only the cluster-scoped kind has, written in the source as "// +cluster-scope:<text>".
	{"// +cluster-scope:", "// "},
}

// dropMarker marks source the cluster-scoped kind leaves out: a comment line of its own drops
// itself and the line after it (a marker: controller-gen refuses a marker line with anything
// after its arguments), and at the end of a code line it drops that line.
const dropMarker = "// +namespaced-only"

func main() {
	from := flag.String("from", "", "directory of the namespaced source package")
	to := flag.String("to", "", "directory of the cluster-scoped package to write")
	imp := flag.String("import", "", "import path of the namespaced source package")
	header := flag.String("header", "", "file whose content heads every generated file")
	refs := flag.Bool("references", false, "write the kinds' ResolveReferences methods into both packages")
	flag.Parse()
	if *from == "" || *to == "" || *imp == "" {
		fmt.Fprintln(os.Stderr, "usage: gen-cluster-scope -from <dir> -to <dir> -import <path> [-header <file>]")
		os.Exit(2)
	}
	if *refs {
		head, err := readHeader(*header)
		if err == nil {
			err = references(*from, head, []string{*from, *to})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen-cluster-scope:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*from, *to, *imp, *header); err != nil {
		fmt.Fprintln(os.Stderr, "gen-cluster-scope:", err)
		os.Exit(1)
	}
}

func readHeader(file string) (string, error) {
	if file == "" {
		return "", nil
	}
	b, err := os.ReadFile(file) //nolint:gosec // G304: a file of the repository that `make generate` names
	return string(b), err
}

func run(from, to, imp, headerFile string) error {
	head, err := readHeader(headerFile)
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(from, "*.go"))
	if err != nil {
		return err
	}
	kinds, shared, err := scanShared(files)
	if err != nil {
		return err
	}
	for _, k := range kinds {
		out, err := kind(k, imp, head, shared)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		if err := os.WriteFile(filepath.Join(to, "zz_generated."+filepath.Base(k)), out, 0o644); err != nil { //nolint:gosec // G306: generated source in the repository, readable like the rest
			return err
		}
	}
	out, err := aliases(imp, head, shared)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(to, "zz_generated.shared.go"), out, 0o644) //nolint:gosec // G306: generated source in the repository, readable like the rest
}

// scanShared sorts the source files into kind files (*_kind.go, copied per kind) and the
// others, whose exported types the copies share (by name).
func scanShared(files []string) (kinds []string, shared map[string]bool, err error) {
	fset := token.NewFileSet()
	shared = map[string]bool{}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "zz_") || strings.HasSuffix(base, "_test.go") {
			continue
		}
		if strings.HasSuffix(base, "_kind.go") {
			kinds = append(kinds, f)
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if ts := s.(*ast.TypeSpec); ts.Name.IsExported() {
					shared[ts.Name.Name] = true
				}
			}
		}
	}
	return kinds, shared, nil
}

// kind copies one namespaced kind file, qualifying the shared types it uses.
func kind(path, imp, head string, shared map[string]bool) ([]byte, error) {
	src, err := os.ReadFile(path) //nolint:gosec // G304: a file of the repository that `make generate` names
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	// Offsets of identifiers naming a shared type, outside selectors (x.Name) and declarations.
	var at []int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false // the selected name (x.Name) is never one of ours
		case *ast.TypeSpec:
			if shared[n.Name.Name] {
				at = nil
				err = fmt.Errorf("declares shared type %s: shared types belong in *_types.go", n.Name.Name)
				return false
			}
		case *ast.Ident:
			if shared[n.Name] {
				at = append(at, fset.Position(n.Pos()).Offset)
			}
		}
		return true
	}
	ast.Inspect(af, visit)
	if err != nil {
		return nil, err
	}
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	for _, o := range at {
		src = append(src[:o], append([]byte(alias+"."), src[o:]...)...)
	}
	s := string(src)
	s, err = dropNamespacedOnly(s)
	if err != nil {
		return nil, err
	}
	for _, r := range rewrites {
		s = strings.ReplaceAll(s, r.from, r.to)
	}
	if len(at) > 0 {
		s = strings.Replace(s, "import (\n", "import (\n\t"+alias+" "+fmt.Sprintf("%q", imp)+"\n", 1)
	}
	s = generated(head, filepath.Base(path)) + s
	return format.Source([]byte(s))
}

// aliases keeps the shared types reachable under the cluster package's import path.
func aliases(imp, head string, shared map[string]bool) ([]byte, error) {
	names := make([]string, 0, len(shared))
	for n := range shared {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString(generated(head, "*_types.go"))
	fmt.Fprintf(&b, "package v1alpha1\n\nimport %s %q\n\n", alias, imp)
	b.WriteString("// The types both scopes share, declared once in the namespaced source package.\ntype (\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s = %s.%s\n", n, alias, n)
	}
	b.WriteString(")\n")
	return format.Source(b.Bytes())
}

func generated(head, from string) string {
	return head + "\n// Code generated by hack/gen-cluster-scope from the namespaced " + from + ". DO NOT EDIT.\n\n"
}

// dropNamespacedOnly removes the lines marked with dropMarker.
func dropNamespacedOnly(s string) (string, error) {
	lines := strings.Split(s, "\n")
	kept := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == dropMarker:
			if i+1 == len(lines) || strings.TrimSpace(lines[i+1]) == "" {
				return "", fmt.Errorf("line %d: %s drops the line after it, and there is none", i+1, dropMarker)
			}
			i++
		case strings.HasSuffix(l, dropMarker):
		default:
			kept = append(kept, lines[i])
		}
	}
	return strings.Join(kept, "\n"), nil
}
