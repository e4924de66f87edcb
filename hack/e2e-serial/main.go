// Command e2e-serial prints the top-level tests of a Go test package that do not call
// t.Parallel(), one per line. hack/test.sh runs those in a process of their own, on services of
// their own, beside the parallel ones: they are serial because they count every request a
// service receives, inject faults into what all tests share, or compare service-wide lists, and
// on their own services no other test disturbs them.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: e2e-serial DIR")
		os.Exit(2)
	}
	names, err := serialTests(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e-serial:", err)
		os.Exit(1)
	}
	for _, n := range names {
		fmt.Println(n)
	}
}

// serialTests returns the names of the TestXxx(t *testing.T) functions in dir's _test.go files
// whose bodies never call Parallel, sorted.
func serialTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var names []string
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range af.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !isTest(fn) || callsParallel(fn.Body) {
				continue
			}
			names = append(names, fn.Name.Name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// isTest: a TestXxx function taking one *testing.T (TestMain takes a *testing.M).
func isTest(fn *ast.FuncDecl) bool {
	if !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// callsParallel: the body calls a method named Parallel (t.Parallel()) anywhere.
func callsParallel(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parallel" && len(c.Args) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}
