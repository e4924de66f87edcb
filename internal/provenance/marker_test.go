package provenance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMarkerRoundTrip(t *testing.T) {
	m := Marker{Installation: "6a1c-uid", Resource: ResourceName("Domain.keystone.identity.crossplane.io", "", "team a/&="), Origin: OriginAdopted}
	got, err := Parse(m.Encode())
	if err != nil {
		t.Fatalf("Parse(Encode()): %v", err)
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Errorf("Parse(Encode()): -want, +got:\n%s", diff)
	}
}

func TestParseRejects(t *testing.T) {
	cases := map[string]string{
		"Empty":          "",
		"WrongVersion":   "v=v0&installation=a&resource=b&origin=created",
		"NoInstallation": "v=v1&resource=b&origin=created",
		"NoResource":     "v=v1&installation=a&origin=created",
		"UnknownOrigin":  "v=v1&installation=a&resource=b&origin=guessed",
		"NotAQuery":      "%zz",
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			if m, err := Parse(s); err == nil {
				t.Errorf("Parse(%q) = %+v, want an error", s, m)
			}
		})
	}
}

func TestText(t *testing.T) {
	m := Marker{Installation: "i", Resource: "Application.authentik.identity.crossplane.io/grafana", Origin: OriginCreated}
	other := Marker{Installation: "j", Resource: "x/y", Origin: OriginAdopted}
	cases := map[string]struct {
		text     string
		wantText string
	}{
		"Empty":           {text: "", wantText: ""},
		"UserText":        {text: "Dashboards for everyone", wantText: "Dashboards for everyone"},
		"MultiLine":       {text: "line one\nline two", wantText: "line one\nline two"},
		"ReplacesAMarker": {text: EmbedInText("kept", other), wantText: "kept"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			embedded := EmbedInText(tc.text, m)
			rest, got, found, err := ExtractFromText(embedded)
			if err != nil || !found {
				t.Fatalf("ExtractFromText(%q): found %v, err %v", embedded, found, err)
			}
			if diff := cmp.Diff(m, got); diff != "" {
				t.Errorf("marker: -want, +got:\n%s", diff)
			}
			if rest != tc.wantText {
				t.Errorf("rest: got %q, want %q", rest, tc.wantText)
			}
		})
	}
	t.Run("NoMarker", func(t *testing.T) {
		rest, _, found, err := ExtractFromText("just text [with brackets]")
		if found || err != nil || rest != "just text [with brackets]" {
			t.Errorf("got rest %q, found %v, err %v", rest, found, err)
		}
	})
	t.Run("UnreadableMarker", func(t *testing.T) {
		_, _, found, err := ExtractFromText("text\n[provider-identity: v=v9]")
		if found || err == nil {
			t.Errorf("an unreadable marker must not count as found: found %v, err %v", found, err)
		}
	})
}

func TestResourceName(t *testing.T) {
	cases := map[string]struct {
		groupKind, namespace, name string
		want                       string
	}{
		"ClusterScoped": {"Domain.keystone.identity.crossplane.io", "", "team-a", "Domain.keystone.identity.crossplane.io/team-a"},
		"Namespaced":    {"Domain.keystone.identity.m.crossplane.io", "team-a", "d", "Domain.keystone.identity.m.crossplane.io/team-a/d"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ResourceName(tc.groupKind, tc.namespace, tc.name)
			if got != tc.want {
				t.Fatalf("ResourceName: got %q, want %q", got, tc.want)
			}
			gk, ns, n, ok := SplitResourceName(got)
			if diff := cmp.Diff([]any{tc.groupKind, tc.namespace, tc.name, true}, []any{gk, ns, n, ok}); diff != "" {
				t.Errorf("SplitResourceName(%q): -want, +got:\n%s", got, diff)
			}
		})
	}
	for _, bad := range []string{"", "Domain.g", "Domain.g/", "/x", "a/b/c/d", "a//c"} {
		if _, _, _, ok := SplitResourceName(bad); ok {
			t.Errorf("SplitResourceName(%q): ok, want not ok", bad)
		}
	}
}
