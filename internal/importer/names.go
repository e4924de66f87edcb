package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

const (
	// maxName is the longest name generated: a DNS label, valid as a resource name and as a
	// label value (Crossplane copies resource names into labels).
	maxName = 63
	// suffixLen is the length of the suffix taken from the ID's hash.
	suffixLen = 8
)

// sanitize lowercases s and turns every run of characters a DNS label cannot hold into one
// dash, trimming dashes at either end.
func sanitize(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// suffix is the deterministic suffix of an object: the start of its ID's SHA-256. An ID is
// unique per kind, so two objects of a kind never share a suffixed name by accident.
func suffix(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:])[:suffixLen]
}

// baseName is the name an object gets when nothing else of its kind wants it: its own name
// lowercased, when that is a valid name; otherwise (characters a name cannot hold, too long,
// empty) the sanitized name cut short, with the suffix of its ID.
func baseName(kind, name, id string) (string, bool) {
	s := sanitize(name)
	if s != "" && strings.EqualFold(s, name) && len(s) <= maxName {
		return s, true
	}
	return withSuffix(kind, s, id), false
}

// withSuffix appends the ID's suffix to s, cut short so the whole is a valid name.
func withSuffix(kind, s, id string) string {
	if s == "" {
		s = strings.ToLower(kind)
	}
	if len(s) > maxName-suffixLen-1 {
		s = strings.TrimRight(s[:maxName-suffixLen-1], "-")
	}
	return s + "-" + suffix(id)
}

// assignNames gives each object of a kind its resource name: its base name, unless another
// object of the kind has the same base, in which case every one of them takes its suffix. So a
// name depends only on the objects listed, never on the order they were listed in.
func assignNames(objs []*Object) {
	byKind := map[string]map[string][]*Object{}
	for _, o := range objs {
		if byKind[o.Kind] == nil {
			byKind[o.Kind] = map[string][]*Object{}
		}
		n, _ := baseName(o.Kind, o.Name, o.ID)
		byKind[o.Kind][n] = append(byKind[o.Kind][n], o)
	}
	for _, names := range byKind {
		for n, same := range names {
			for _, o := range same {
				o.ResourceName = n
				if len(same) > 1 {
					o.ResourceName = withSuffix(o.Kind, sanitize(o.Name), o.ID)
				}
			}
		}
	}
}
