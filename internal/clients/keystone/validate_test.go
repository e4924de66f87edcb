package keystone

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

func TestCheckFields(t *testing.T) {
	desc := "line one\n\tline two\r\n"
	cases := map[string]struct {
		fields []clients.Field
		want   string // "" for no error, else a part of the message
	}{
		"ValidNames":            {fields: []clients.Field{clients.F("spec.forProvider.name", "team-a", Name(64)), clients.F("spec.forProvider.name", "Équipe ünicode 東京", Name(64))}},
		"NewlineInName":         {fields: []clients.Field{clients.F("spec.forProvider.name", "a\nb", Name(64))}, want: `spec.forProvider.name "a\nb" contains control characters`},
		"EscapeInName":          {fields: []clients.Field{clients.F("spec.forProvider.name", "a\x1bb", Name(255))}, want: "spec.forProvider.name"},
		"BlankName":             {fields: []clients.Field{clients.F("spec.forProvider.name", "  ", Name(64))}, want: "is blank"},
		"NameTooLong":           {fields: []clients.Field{clients.F("spec.forProvider.name", strings.Repeat("n", 65), Name(64))}, want: "limit of 64 characters"},
		"UnicodeNameAtLimit":    {fields: []clients.Field{clients.F("spec.forProvider.name", strings.Repeat("é", 64), Name(64))}},
		"MultilineDescription":  {fields: []clients.Field{clients.FP("spec.forProvider.description", &desc, Description)}},
		"NULInDescription":      {fields: []clients.Field{clients.FP("spec.forProvider.description", ptr("a\x00b"), Description)}, want: "spec.forProvider.description"},
		"UnsetOptional":         {fields: []clients.Field{clients.FP("spec.forProvider.domainId", nil, ID)}},
		"DefaultDomainID":       {fields: []clients.Field{clients.F("spec.forProvider.domainId", "default", ID)}},
		"HexID":                 {fields: []clients.Field{clients.F("spec.forProvider.domainId", "4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c", ID)}},
		"SlashInID":             {fields: []clients.Field{clients.F("spec.forProvider.domainId", "a/b", ID)}, want: `spec.forProvider.domainId "a/b" is not a Keystone ID`},
		"DotsInID":              {fields: []clients.Field{clients.F("spec.forProvider.parentId", "..", ID)}, want: "spec.forProvider.parentId"},
		"QueryInID":             {fields: []clients.Field{clients.F("spec.forProvider.domainId", "a?b=c", ID)}, want: "spec.forProvider.domainId"},
		"IDTooLong":             {fields: []clients.Field{clients.F("spec.forProvider.domainId", strings.Repeat("a", 65), ID)}, want: "at most 64"},
		"FederationID":          {fields: []clients.Field{clients.F("spec.forProvider.id", "my_idp-1", FederationID)}},
		"FederationIDDot":       {fields: []clients.Field{clients.F("spec.forProvider.mappingId", "../m", FederationID)}, want: `spec.forProvider.mappingId "../m" is not a Keystone federation ID`},
		"LDAPUserID":            {fields: []clients.Field{clients.F("spec.forProvider.userId", "John Smith", ActorID)}},
		"SlashInActorID":        {fields: []clients.Field{clients.F("spec.forProvider.userId", "a/b", ActorID)}, want: "spec.forProvider.userId"},
		"DotDotActorID":         {fields: []clients.Field{clients.F("spec.forProvider.groupId", "..", ActorID)}, want: "spec.forProvider.groupId"},
		"Tag":                   {fields: []clients.Field{clients.F("spec.forProvider.tags[0]", "env=prod", Tag)}},
		"CommaInTag":            {fields: []clients.Field{clients.F("spec.forProvider.tags[1]", "a,b", Tag)}, want: "spec.forProvider.tags[1]"},
		"FirstBadFieldIsNamed":  {fields: []clients.Field{clients.F("spec.forProvider.name", "ok", Name(64)), clients.F("spec.forProvider.domainId", "a/b", ID), clients.F("spec.forProvider.parentId", "c/d", ID)}, want: "spec.forProvider.domainId"},
		"MessageSaysWhatToDo":   {fields: []clients.Field{clients.F("spec.forProvider.name", "a\tb", Name(64))}, want: "correct the resource's spec"},
		"MessageNamesResource":  {fields: []clients.Field{clients.F("spec.forProvider.name", "a\tb", Name(64))}, want: "refusing to write Keystone project for cr-name"},
		"ControlCharacterEmail": {fields: []clients.Field{clients.FP("spec.forProvider.email", ptr("a@b\r\nBcc: c@d"), Name(255))}, want: "spec.forProvider.email"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := clients.CheckFields("Keystone project", "cr-name", tc.fields...)
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
