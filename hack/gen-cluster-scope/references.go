package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// referenceMarker names, on a parameter holding an external ID (*string) or a list of them
// ([]string), the kind whose external name fills it: "+identity:reference:type=Domain". The
// reference and selector fields are the ID field's name with its ID suffix replaced by Ref and
// Selector (DomainID: DomainRef, DomainSelector), or for a list its IDs suffix by Refs and
// Selector (RoleIDs: RoleRefs, RoleSelector). Where a field does not follow that rule,
// "+identity:reference:refFieldName=ParentRefs" and
// "+identity:reference:selectorFieldName=ParentSelector" name them. angryjet's own markers are
// not used: for a namespaced kind it writes resolvers of namespaced references
// (xpv2.NamespacedReference, which may name another namespace), and both scopes here share
// parameters whose references carry a name only.
const (
	referenceMarker = "+identity:reference:type="
	refFieldMarker  = "+identity:reference:refFieldName="
	selFieldMarker  = "+identity:reference:selectorFieldName="
)

// A ref is one reference field of a kind's parameters.
type ref struct {
	Value, Ref, Selector, To, JSON string
	// Multiple is true for a list of IDs ([]string), resolved from a list of references.
	Multiple bool
	// Parent is the optional block (a pointer to a struct in the parameters) that holds the
	// fields, such as a Stage's prompt block; empty for a field of the parameters themselves.
	Parent string
}

// A structField is a field of a struct as written: its name, type and JSON name.
type structField struct{ name, typ, json string }

// references writes, into each of dirs, the ResolveReferences methods of the kinds declared
// in the source directory's *_kind.go files whose parameters carry reference markers. Each
// resolves within the resource's own namespace (none for a cluster-scoped resource), among
// the kinds of the resource's own package, so a namespaced resource never reaches another
// namespace nor a cluster-scoped resource, and the other way round.
func references(from, head string, dirs []string) error {
	kinds, err := parseReferences(from)
	if err != nil {
		return err
	}
	out, err := format.Source(renderReferences(head, kinds))
	if err != nil {
		return err
	}
	if len(kinds) == 0 {
		return nil
	}
	for _, d := range dirs {
		p := filepath.Join(d, "zz_generated.references.go")
		if err := os.WriteFile(p, out, 0o644); err != nil { //nolint:gosec // G306: generated source in the repository, readable like the rest
			return err
		}
	}
	return nil
}

// A kindRefs is a kind with the references of its parameters.
type kindRefs struct {
	kind string
	refs []ref
}

// parseReferences reads the kinds of the Go files in from (generated files and tests aside)
// whose parameters have references, sorted by kind.
func parseReferences(from string) ([]kindRefs, error) {
	fset := token.NewFileSet()
	params := map[string][]ref{} // parameters type: its references
	forProvider := map[string]string{}
	structs := map[string][]structField{}
	files, err := filepath.Glob(filepath.Join(from, "*.go"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "zz_") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, ts := range structTypes(af) {
			if err := scanStruct(ts, params, forProvider); err != nil {
				return nil, err
			}
			structs[ts.Name.Name] = fieldsOf(ts)
		}
	}
	kinds := make([]kindRefs, 0, len(forProvider))
	for k, p := range forProvider {
		if refs := withBlocks(p, params, structs); len(refs) > 0 {
			kinds = append(kinds, kindRefs{kind: k, refs: refs})
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].kind < kinds[j].kind })
	return kinds, nil
}

// withBlocks are the references of the parameters type p and those of its optional blocks:
// fields of p whose type is a pointer to a struct with references (one level deep).
func withBlocks(p string, params map[string][]ref, structs map[string][]structField) []ref {
	refs := append([]ref(nil), params[p]...)
	for _, f := range structs[p] {
		inner, ok := strings.CutPrefix(f.typ, "*")
		if !ok {
			continue
		}
		for _, r := range params[inner] {
			r.Parent, r.JSON = f.name, f.json+"."+r.JSON
			refs = append(refs, r)
		}
	}
	return refs
}

// fieldsOf are a struct's named fields, in order.
func fieldsOf(ts *ast.TypeSpec) []structField {
	var out []structField
	for _, fl := range ts.Type.(*ast.StructType).Fields.List {
		js := ""
		if fl.Tag != nil {
			js, _, _ = strings.Cut(reflect.StructTag(strings.Trim(fl.Tag.Value, "`")).Get("json"), ",")
		}
		for _, n := range fl.Names {
			out = append(out, structField{name: n.Name, typ: types.ExprString(fl.Type), json: js})
		}
	}
	return out
}

// structTypes are the struct type declarations of a file.
func structTypes(af *ast.File) []*ast.TypeSpec {
	var out []*ast.TypeSpec
	for _, d := range af.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); isStruct(ts) {
				out = append(out, ts)
			}
		}
	}
	return out
}

func isStruct(ts *ast.TypeSpec) bool {
	_, ok := ts.Type.(*ast.StructType)
	return ok
}

// scanStruct records a struct's references (in params, by the struct's name) and, for a
// <Kind>Spec, the type of its ForProvider (in forProvider, by kind).
func scanStruct(ts *ast.TypeSpec, params map[string][]ref, forProvider map[string]string) error {
	st := ts.Type.(*ast.StructType)
	fields := map[string]string{} // field name: its type, as written
	for _, fl := range st.Fields.List {
		for _, n := range fl.Names {
			fields[n.Name] = types.ExprString(fl.Type)
		}
	}
	for _, fl := range st.Fields.List {
		if len(fl.Names) == 1 && fl.Names[0].Name == "ForProvider" && strings.HasSuffix(ts.Name.Name, "Spec") {
			if id, ok := fl.Type.(*ast.Ident); ok {
				forProvider[strings.TrimSuffix(ts.Name.Name, "Spec")] = id.Name
			}
		}
		r, err := refOf(fl)
		if err == nil && r != nil {
			err = r.check(fields)
		}
		if err != nil {
			return fmt.Errorf("%s.%s: %w", ts.Name.Name, fl.Names[0].Name, err)
		}
		if r != nil {
			params[ts.Name.Name] = append(params[ts.Name.Name], *r)
		}
	}
	return nil
}

// renderReferences is the source (before gofmt) of zz_generated.references.go.
func renderReferences(head string, kinds []kindRefs) []byte {
	var b bytes.Buffer
	b.WriteString(head + "\n// Code generated by hack/gen-cluster-scope from +identity:reference markers. DO NOT EDIT.\n\n")
	b.WriteString("package v1alpha1\n\nimport (\n\t\"context\"\n\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\n" +
		"\t\"github.com/crossplane/crossplane-runtime/v2/pkg/errors\"\n\t\"github.com/crossplane/crossplane-runtime/v2/pkg/reference\"\n)\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n// ResolveReferences of this %s, among the resources of its own scope and namespace.\n", k.kind)
		fmt.Fprintf(&b, "func (mg *%s) ResolveReferences(ctx context.Context, c client.Reader) error {\n", k.kind)
		b.WriteString("\tr := reference.NewAPIResolver(c, mg)\n\tfp := &mg.Spec.ForProvider\n\n")
		for _, r := range k.refs {
			writeResolve(&b, r)
		}
		b.WriteString("\treturn nil\n}\n")
	}
	return b.Bytes()
}

// writeResolve writes the resolution of one reference field; a field of an optional block is
// resolved only when the block is set.
func writeResolve(b *bytes.Buffer, r ref) {
	fp := "fp"
	if r.Parent != "" {
		fp = "fp." + r.Parent
		fmt.Fprintf(b, "\tif %s != nil {\n", fp)
	}
	if r.Multiple {
		fmt.Fprintf(b, "\tif rsp, err := r.ResolveMultiple(ctx, reference.MultiResolutionRequest{\n"+
			"\t\tCurrentValues: %[6]s.%[1]s, References: %[6]s.%[2]s, Selector: %[6]s.%[3]s,\n"+
			"\t\tTo: reference.To{Managed: &%[4]s{}, List: &%[4]sList{}}, Extract: reference.ExternalName(), Namespace: mg.GetNamespace(),\n"+
			"\t}); err != nil {\n\t\treturn errors.Wrap(err, %[5]q)\n\t} else {\n"+
			"\t\t%[6]s.%[1]s, %[6]s.%[2]s = rsp.ResolvedValues, rsp.ResolvedReferences\n\t}\n",
			r.Value, r.Ref, r.Selector, r.To, "spec.forProvider."+r.JSON, fp)
	} else {
		fmt.Fprintf(b, "\tif rsp, err := r.Resolve(ctx, reference.ResolutionRequest{\n"+
			"\t\tCurrentValue: reference.FromPtrValue(%[6]s.%[1]s), Reference: %[6]s.%[2]s, Selector: %[6]s.%[3]s,\n"+
			"\t\tTo: reference.To{Managed: &%[4]s{}, List: &%[4]sList{}}, Extract: reference.ExternalName(), Namespace: mg.GetNamespace(),\n"+
			"\t}); err != nil {\n\t\treturn errors.Wrap(err, %[5]q)\n\t} else {\n"+
			"\t\t%[6]s.%[1]s, %[6]s.%[2]s = reference.ToPtrValue(rsp.ResolvedValue), rsp.ResolvedReference\n\t}\n",
			r.Value, r.Ref, r.Selector, r.To, "spec.forProvider."+r.JSON, fp)
	}
	if r.Parent != "" {
		b.WriteString("\t}\n")
	}
}

// refOf reads a field's reference markers: a *string ID is resolved from one reference, a
// []string list of IDs from a list of references.
func refOf(f *ast.Field) (*ref, error) {
	if f.Doc == nil || len(f.Names) != 1 {
		return nil, nil
	}
	var to, refName, selName string
	for _, c := range f.Doc.List {
		t := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		switch {
		case strings.HasPrefix(t, referenceMarker):
			to = strings.TrimPrefix(t, referenceMarker)
		case strings.HasPrefix(t, refFieldMarker):
			refName = strings.TrimPrefix(t, refFieldMarker)
		case strings.HasPrefix(t, selFieldMarker):
			selName = strings.TrimPrefix(t, selFieldMarker)
		}
	}
	if to == "" {
		if refName != "" || selName != "" {
			return nil, fmt.Errorf("%s or %s without %s<Kind>", refFieldMarker, selFieldMarker, referenceMarker)
		}
		return nil, nil
	}
	name := f.Names[0].Name
	r := &ref{Value: name, To: to}
	switch types.ExprString(f.Type) {
	case "*string":
		base := strings.TrimSuffix(name, "ID")
		r.Ref, r.Selector = base+"Ref", base+"Selector"
	case "[]string":
		base := strings.TrimSuffix(name, "IDs")
		r.Ref, r.Selector, r.Multiple = base+"Refs", base+"Selector", true
	default:
		return nil, fmt.Errorf("a reference must fill a *string or []string field, not %s", types.ExprString(f.Type))
	}
	if refName != "" {
		r.Ref = refName
	}
	if selName != "" {
		r.Selector = selName
	}
	if f.Tag != nil {
		r.JSON, _, _ = strings.Cut(reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("json"), ",")
	}
	return r, nil
}

// check fails unless the reference and selector fields exist in the parameters with the types
// the resolver assigns, so that a misnamed field fails here with its name, not in the compiler.
func (r *ref) check(fields map[string]string) error {
	wantRef := "*xpv2.Reference"
	if r.Multiple {
		wantRef = "[]xpv2.Reference"
	}
	for _, w := range []struct{ name, typ, marker string }{
		{r.Ref, wantRef, refFieldMarker},
		{r.Selector, "*xpv2.Selector", selFieldMarker},
	} {
		got, ok := fields[w.name]
		if !ok {
			return fmt.Errorf("no field %s %s next to it: add it, or name the field with %s<Field>", w.name, w.typ, w.marker)
		}
		if got != w.typ {
			return fmt.Errorf("field %s is %s, the resolver needs %s", w.name, got, w.typ)
		}
	}
	return nil
}
