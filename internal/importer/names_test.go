package importer

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Names are the object's own name when valid, else sanitized with a suffix of the ID's hash;
// colliding names all take their suffix, whatever the order they were listed in.
func TestAssignNames(t *testing.T) {
	long := strings.Repeat("a", 70)
	cases := map[string]struct {
		objs []*Object
		want map[string]string // ID to name
	}{
		"Valid":          {objs: []*Object{{Kind: "Domain", ID: "d1", Name: "team-a"}}, want: map[string]string{"d1": "team-a"}},
		"Uppercase":      {objs: []*Object{{Kind: "Domain", ID: "default", Name: "Default"}}, want: map[string]string{"default": "default"}},
		"InvalidChars":   {objs: []*Object{{Kind: "User", ID: "u1", Name: "alice@example.com"}}, want: map[string]string{"u1": "alice-example-com-" + suffix("u1")}},
		"TooLong":        {objs: []*Object{{Kind: "Project", ID: "p1", Name: long}}, want: map[string]string{"p1": long[:54] + "-" + suffix("p1")}},
		"NothingLeft":    {objs: []*Object{{Kind: "Group", ID: "g1", Name: "***"}}, want: map[string]string{"g1": "group-" + suffix("g1")}},
		"OtherKindsDont": {objs: []*Object{{Kind: "Domain", ID: "d1", Name: "web"}, {Kind: "Project", ID: "p1", Name: "web"}}, want: map[string]string{"d1": "web", "p1": "web"}},
		"Collision": {objs: []*Object{{Kind: "Project", ID: "p1", Name: "web"}, {Kind: "Project", ID: "p2", Name: "Web"}, {Kind: "Project", ID: "p3", Name: "api"}},
			want: map[string]string{"p1": "web-" + suffix("p1"), "p2": "web-" + suffix("p2"), "p3": "api"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for _, order := range [][]*Object{tc.objs, reversed(tc.objs)} {
				assignNames(order)
				got := map[string]string{}
				for _, o := range order {
					got[o.ID] = o.ResourceName
					if errs := validation.IsDNS1123Label(o.ResourceName); len(errs) > 0 {
						t.Errorf("%s: %q is not a valid name: %v", o.ID, o.ResourceName, errs)
					}
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func reversed(objs []*Object) []*Object {
	out := make([]*Object, len(objs))
	for i, o := range objs {
		out[len(objs)-1-i] = o
	}
	return out
}
