package clients

import (
	"regexp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// The CRDs refuse bad input at admission. Drivers check it again right before a create or
// update, with the rules of the system they write to (keystone.ID, authentik.Slug...): a
// resource stored under an older CRD, before a rule existed, never went through admission.
const errInvalidField = "refusing to write %s for %s: %s %q %s; correct the resource's spec (it may have been stored before its CRD checked this)"

// A Rule says what is wrong with a value, or "" when nothing is.
type Rule func(v string) string

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

var (
	controlChars     = regexp.MustCompile(`[\x00-\x1f\x7f]`)
	controlCharsText = regexp.MustCompile(`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]`)
)

// HasControlChars tells whether v holds a control character (newline, tab, escape...).
func HasControlChars(v string) bool { return controlChars.MatchString(v) }

// Text refuses control characters other than tabs and line breaks: descriptions and other
// free text.
func Text(v string) string {
	if controlCharsText.MatchString(v) {
		return "contains control characters other than tabs and line breaks"
	}
	return ""
}

// SingleLine refuses every control character.
func SingleLine(v string) string {
	if HasControlChars(v) {
		return "contains control characters (newline, tab, escape...)"
	}
	return ""
}
