package keystone

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckFields(t *testing.T) {
	desc := "line one\n\tline two\r\n"
	cases := map[string]struct {
		fields []Field
		want   string // "" for no error, else a part of the message
	}{
		"ValidNames":            {fields: []Field{F("spec.forProvider.name", "team-a", Name(64)), F("spec.forProvider.name", "Équipe ünicode 東京", Name(64))}},
		"NewlineInName":         {fields: []Field{F("spec.forProvider.name", "a\nb", Name(64))}, want: `spec.forProvider.name "a\nb" contains control characters`},
		"EscapeInName":          {fields: []Field{F("spec.forProvider.name", "a\x1bb", Name(255))}, want: "spec.forProvider.name"},
		"BlankName":             {fields: []Field{F("spec.forProvider.name", "  ", Name(64))}, want: "is blank"},
		"NameTooLong":           {fields: []Field{F("spec.forProvider.name", strings.Repeat("n", 65), Name(64))}, want: "limit of 64 characters"},
		"UnicodeNameAtLimit":    {fields: []Field{F("spec.forProvider.name", strings.Repeat("é", 64), Name(64))}},
		"MultilineDescription":  {fields: []Field{FP("spec.forProvider.description", &desc, Description)}},
		"NULInDescription":      {fields: []Field{FP("spec.forProvider.description", ptr("a\x00b"), Description)}, want: "spec.forProvider.description"},
		"UnsetOptional":         {fields: []Field{FP("spec.forProvider.domainId", nil, ID)}},
		"DefaultDomainID":       {fields: []Field{F("spec.forProvider.domainId", "default", ID)}},
		"HexID":                 {fields: []Field{F("spec.forProvider.domainId", "4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c", ID)}},
		"SlashInID":             {fields: []Field{F("spec.forProvider.domainId", "a/b", ID)}, want: `spec.forProvider.domainId "a/b" is not a Keystone ID`},
		"DotsInID":              {fields: []Field{F("spec.forProvider.parentId", "..", ID)}, want: "spec.forProvider.parentId"},
		"QueryInID":             {fields: []Field{F("spec.forProvider.domainId", "a?b=c", ID)}, want: "spec.forProvider.domainId"},
		"IDTooLong":             {fields: []Field{F("spec.forProvider.domainId", strings.Repeat("a", 65), ID)}, want: "at most 64"},
		"LDAPUserID":            {fields: []Field{F("spec.forProvider.userId", "John Smith", ActorID)}},
		"SlashInActorID":        {fields: []Field{F("spec.forProvider.userId", "a/b", ActorID)}, want: "spec.forProvider.userId"},
		"DotDotActorID":         {fields: []Field{F("spec.forProvider.groupId", "..", ActorID)}, want: "spec.forProvider.groupId"},
		"Tag":                   {fields: []Field{F("spec.forProvider.tags[0]", "env=prod", Tag)}},
		"CommaInTag":            {fields: []Field{F("spec.forProvider.tags[1]", "a,b", Tag)}, want: "spec.forProvider.tags[1]"},
		"FirstBadFieldIsNamed":  {fields: []Field{F("spec.forProvider.name", "ok", Name(64)), F("spec.forProvider.domainId", "a/b", ID), F("spec.forProvider.parentId", "c/d", ID)}, want: "spec.forProvider.domainId"},
		"MessageSaysWhatToDo":   {fields: []Field{F("spec.forProvider.name", "a\tb", Name(64))}, want: "correct the resource's spec"},
		"MessageNamesResource":  {fields: []Field{F("spec.forProvider.name", "a\tb", Name(64))}, want: "refusing to write Keystone project for cr-name"},
		"ControlCharacterEmail": {fields: []Field{FP("spec.forProvider.email", ptr("a@b\r\nBcc: c@d"), Name(255))}, want: "spec.forProvider.email"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := CheckFields("Keystone project", "cr-name", tc.fields...)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tc.want == "" {
				if diff := cmp.Diff("", got); diff != "" {
					t.Errorf("CheckFields(...): -want no error, +got:\n%s", diff)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("CheckFields(...) = %q; want an error containing %q", got, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
