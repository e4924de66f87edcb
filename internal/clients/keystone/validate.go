package keystone

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// The CRDs refuse these values at admission. Drivers check them again right before a create or
// update: a resource stored under an older CRD, before a rule existed, never went through it,
// and Keystone itself stores control characters as given and puts IDs into URLs.
const errInvalidField = "refusing to write %s for %s: %s %q %s; correct the resource's spec (it may have been stored before its CRD checked this)"

// A Rule says what is wrong with a value, or "" when nothing is.
type Rule func(v string) string

var (
	controlChars     = regexp.MustCompile(`[\x00-\x1f\x7f]`)
	controlCharsText = regexp.MustCompile(`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]`)
	keystoneID       = regexp.MustCompile(`^[A-Za-z0-9-]+$`)
)

// Name is a Keystone name of at most max characters: not blank, no control characters.
func Name(max int) Rule {
	return func(v string) string {
		switch {
		case strings.TrimSpace(v) == "":
			return "is blank"
		case len([]rune(v)) > max:
			return "is longer than Keystone's limit of " + strconv.Itoa(max) + " characters"
		case controlChars.MatchString(v):
			return "contains control characters (newline, tab, escape...)"
		}
		return ""
	}
}

// Description is free text: tabs and line breaks are allowed, other control characters are not.
func Description(v string) string {
	if controlCharsText.MatchString(v) {
		return "contains control characters other than tabs and line breaks"
	}
	return ""
}

// ID is the ID of a Keystone domain, project or role as Keystone generates it (and as its
// schema requires where it validates one): letters, digits and hyphens, at most 64.
func ID(v string) string {
	if len(v) > 64 || !keystoneID.MatchString(v) {
		return "is not a Keystone ID: letters, digits and hyphens only, at most 64 characters"
	}
	return ""
}

// ActorID is the ID of a user or a group, which an LDAP backend may take from a directory
// attribute: it becomes one segment of a URL, so no '/', no control characters, not . or ..
func ActorID(v string) string {
	if v == "" || len(v) > 64 || strings.Contains(v, "/") || controlChars.MatchString(v) || v == "." || v == ".." {
		return "is not a usable Keystone ID: 1 to 64 characters, no '/' or control characters, not . or .."
	}
	return ""
}

// Tag is a project tag: 1 to 255 characters, no ',' or '/' (Keystone's tag rules), no control
// characters.
func Tag(v string) string {
	if v == "" || len([]rune(v)) > 255 || strings.ContainsAny(v, ",/") || controlChars.MatchString(v) {
		return "is not a Keystone tag: 1 to 255 characters, no ',', '/' or control characters"
	}
	return ""
}

// A Field is one value a driver is about to write, named by its path in the resource.
type Field struct {
	Path  string
	Value *string
	Rule  Rule
}

// F names a required value.
func F(path, v string, r Rule) Field { return Field{Path: path, Value: &v, Rule: r} }

// FP names an optional value; nil is not checked.
func FP(path string, v *string, r Rule) Field { return Field{Path: path, Value: v, Rule: r} }

// CheckFields returns an error naming the first field that breaks its rule. what is the kind
// of object about to be written (for example "Keystone project"), resource the managed
// resource's name.
func CheckFields(what, resource string, fields ...Field) error {
	for _, f := range fields {
		if f.Value == nil {
			continue
		}
		if msg := f.Rule(*f.Value); msg != "" {
			return errors.Errorf(errInvalidField, what, resource, f.Path, *f.Value, msg)
		}
	}
	return nil
}
