package importer

import (
	"fmt"
	"slices"
	"strings"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	reasonNoInstallation = "carries a provenance marker of installation %q (resource %s), and this run does not know its own installation ID: connect through a ProviderConfig, or pass --installation-id, to tell whether it is this installation's"
	reasonForeign        = "carries the provenance marker of another installation, %q (resource %s): it is that installation's to manage, and no manifest was written for it"
	reasonManaged        = "is already managed by this installation (resource %s): skipped"
	reasonClaimed        = "is already managed by %s in the cluster: skipped"
	reasonRelatedNoInst  = "%s carries a provenance marker of installation %q (resource %s), and this run does not know its own installation ID: connect through a ProviderConfig, or pass --installation-id, to tell whether it is this installation's"
	reasonRelatedForeign = "%s carries the provenance marker of another installation, %q (resource %s): it may be that installation's to manage, and no manifest was written for it"
	reasonNotReviewed    = "has no manifest in the directory, so it was not reviewed: not adopted (run with --mode observe to add it, review it, then adopt)"

	errDuplicateFile = "two objects would be written to %s (%s and %s): please report this"
)

// A Target is where and how the manifests are written.
type Target struct {
	// Namespace of the generated resources.
	Namespace string
	// Mode of the generated resources.
	Mode Mode
	// ProviderConfigRef the resources name; nil leaves the CRD's default.
	ProviderConfigRef *xpv2.ProviderConfigReference
	// Installation is this installation's ID; "" when unknown, and then every marked object is
	// refused: it may be another installation's.
	Installation string
	// Claimed lists, per kind, the external names that resources in the cluster already
	// manage, with the resource (namespace/name): for markerless kinds, the only record.
	Claimed map[string]map[string]string
	// Only, when set, restricts the manifests to these objects (kind, then ID): in adopt
	// mode, those whose manifests are in the directory, that is the reviewed ones.
	Only map[string]map[string]bool
}

// A File is one manifest to write.
type File struct {
	Name string
	Kind string
	ID   string
	Data []byte
}

// A Skip is an object listed and not written, and why.
type Skip struct {
	Kind     string
	Describe string
	Reason   string
	// Refused is true for objects another installation may own (not merely already managed).
	Refused bool
}

// A Plan is what an import writes and leaves out.
type Plan struct {
	Files   []File
	Skipped []Skip
	// Notes are per-object notes (what to supply), one line each.
	Notes []string
}

// refTable resolves references to the generated resources, and to the resources of the target
// namespace that already manage an object (their marker names them).
type refTable map[string]map[string]string

func (r refTable) Name(kind, id string) (string, bool) {
	n, ok := r[kind][id]
	return n, ok
}

func (r refTable) add(kind, id, name string) {
	if r[kind] == nil {
		r[kind] = map[string]string{}
	}
	r[kind][id] = name
}

// Build judges every object, names the ones to write and renders their manifests. The result
// depends only on objs as a set and on t: files and skips come sorted.
func Build(objs []*Object, t Target) (Plan, error) {
	var p Plan
	refs := refTable{}
	var keep []*Object
	for _, o := range objs {
		s, alias := judge(o, t)
		if alias != "" {
			refs.add(o.Kind, o.ID, alias)
		}
		if s != nil {
			p.Skipped = append(p.Skipped, *s)
			continue
		}
		keep = append(keep, o)
	}
	assignNames(keep)
	for _, o := range keep {
		refs.add(o.Kind, o.ID, o.ResourceName)
	}
	byFile := map[string]*Object{}
	for _, o := range keep {
		data, err := render(o, manifest(o, t.Namespace, t.Mode, t.ProviderConfigRef, refs))
		if err != nil {
			return Plan{}, err
		}
		name := strings.ToLower(o.Kind) + "-" + o.ResourceName + ".yaml"
		if other, dup := byFile[name]; dup {
			return Plan{}, fmt.Errorf(errDuplicateFile, name, other.Describe, o.Describe)
		}
		byFile[name] = o
		p.Files = append(p.Files, File{Name: name, Kind: o.Kind, ID: o.ID, Data: data})
		for _, n := range o.Notes {
			p.Notes = append(p.Notes, fmt.Sprintf("%s (%s): %s", name, o.Describe, n))
		}
	}
	slices.SortFunc(p.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(p.Notes)
	slices.SortFunc(p.Skipped, func(a, b Skip) int {
		return strings.Compare(a.Kind+"\x00"+a.Describe, b.Kind+"\x00"+b.Describe)
	})
	return p, nil
}

// judge returns why o is not written (nil: it is), and the name of the resource of the target
// namespace that already manages it, if any, for references to it.
func judge(o *Object, t Target) (*Skip, string) {
	skip := func(refused bool, format string, args ...any) *Skip {
		return &Skip{Kind: o.Kind, Describe: o.Describe, Reason: fmt.Sprintf(format, args...), Refused: refused}
	}
	if o.Unsupported != "" {
		return skip(false, "%s", o.Unsupported), ""
	}
	if m := o.Marker; m != nil {
		switch {
		case t.Installation == "":
			return skip(true, reasonNoInstallation, m.Installation, m.Resource), ""
		case m.Installation != t.Installation:
			return skip(true, reasonForeign, m.Installation, m.Resource), ""
		}
		return skip(false, reasonManaged, m.Resource), sameNamespace(o, m, t.Namespace)
	}
	for _, r := range o.Related {
		switch {
		case t.Installation == "":
			return skip(true, reasonRelatedNoInst, r.Of, r.Marker.Installation, r.Marker.Resource), ""
		case r.Marker.Installation != t.Installation:
			return skip(true, reasonRelatedForeign, r.Of, r.Marker.Installation, r.Marker.Resource), ""
		}
	}
	if r, ok := t.Claimed[o.Kind][o.ID]; ok {
		alias := ""
		if ns, name, found := strings.Cut(r, "/"); found && ns == t.Namespace {
			alias = name
		}
		return skip(false, reasonClaimed, o.Kind+" "+r), alias
	}
	if t.Only != nil && !t.Only[o.Kind][o.ID] {
		return skip(false, reasonNotReviewed), ""
	}
	return nil, ""
}

// sameNamespace is the name of the resource m names when it is a resource of o's kind in
// namespace, else "".
func sameNamespace(o *Object, m *provenance.Marker, namespace string) string {
	gk, ns, name, ok := provenance.SplitResourceName(m.Resource)
	if !ok || gk != o.GroupKind || ns != namespace {
		return ""
	}
	return name
}
