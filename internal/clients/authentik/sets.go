package authentik

import "slices"

// SortedSet returns a sorted copy of s without duplicates; nil stays nil. authentik keeps the
// set-valued fields (a group's parents and roles, a user's groups) in no particular order, so
// they are compared and shown as sorted sets.
func SortedSet(s []string) []string {
	if s == nil {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// NonNil returns s, or an empty list for nil: an empty list is written and compared as [],
// never as null.
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
