package managedkind

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestWaker(t *testing.T) {
	const kind = "Domain.keystone.identity.crossplane.io"
	cases := map[string]struct {
		waits [][]string // successive WaitFor calls of the domain "d"
		gone  []string
		want  []string // names woken, in order
	}{
		"WokenWhenTheLastIsGone": {
			waits: [][]string{{"Project.x/a", "Project.x/b"}},
			gone:  []string{"Project.x/a", "Project.x/b"},
			want:  []string{"d"},
		},
		"NotWokenWhileOneRemains": {
			waits: [][]string{{"Project.x/a", "Project.x/b"}},
			gone:  []string{"Project.x/a", "Project.x/c"},
		},
		"ALaterCheckReplacesWhatItWaitsFor": {
			waits: [][]string{{"Project.x/a", "Project.x/b"}, {"Project.x/b"}},
			gone:  []string{"Project.x/b"},
			want:  []string{"d"},
		},
		"WokenOnce": {
			waits: [][]string{{"Project.x/a"}},
			gone:  []string{"Project.x/a", "Project.x/a"},
			want:  []string{"d"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := NewWaker()
			for _, rs := range tc.waits {
				w.WaitFor(kind, "", "d", rs)
			}
			for _, r := range tc.gone {
				w.Gone(r)
			}
			ch := w.channel(kind)
			var got []string
			for len(ch) > 0 {
				got = append(got, (<-ch).Object.GetName())
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("woken: -want +got:\n%s", diff)
			}
		})
	}
}
