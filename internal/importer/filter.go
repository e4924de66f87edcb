package importer

import (
	"path"
	"strings"
)

// A Filter selects what is listed.
type Filter struct {
	// Kinds to list, lowercase (e.g. "project"); empty lists every kind.
	Kinds []string
	// Domain, when set, lists only that Keystone domain (by name) and what is in it: its
	// projects, groups, users and domain-specific roles, and the role assignments on it and
	// its projects. Global roles are then not listed; assignments name them by ID.
	Domain string
	// Name is a shell pattern (path.Match) an object's name must match; role assignments,
	// which have none, are not filtered by it.
	Name string
	// BuiltIn, for authentik, also lists the objects authentik makes itself (its bootstrap
	// admin user and group, the anonymous user, users under a goauthentik.io/ path).
	BuiltIn bool
}

// kind reports whether the filter lists kind.
func (f Filter) kind(kind string) bool {
	if len(f.Kinds) == 0 {
		return true
	}
	for _, k := range f.Kinds {
		if strings.EqualFold(k, kind) {
			return true
		}
	}
	return false
}

// name reports whether the filter lists an object named n.
func (f Filter) name(n string) bool {
	if f.Name == "" {
		return true
	}
	ok, err := path.Match(f.Name, n)
	return err == nil && ok
}

// Validate checks the name pattern.
func (f Filter) Validate() error {
	if _, err := path.Match(f.Name, ""); err != nil {
		return errBadPattern(f.Name)
	}
	return nil
}
