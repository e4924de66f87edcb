package group

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// Deleting a group deletes its policy bindings and detaches its child groups and members:
// the engine refuses while it has any, naming them.
func TestDeleteWithDependents(t *testing.T) {
	cases := map[string]struct {
		setup       func(t *testing.T, e *authentiktest.Env, pk string)
		fault       string
		wantBlocked []string
		wantErr     string
	}{
		"NothingInTheWay": {},
		"ChildGroup": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				e.Seed(t, "core/groups", map[string]any{"name": "juniors", "parents": []any{pk}})
			},
			wantBlocked: []string{`authentik group "juniors"`},
		},
		"Member": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				e.Seed(t, "core/users", map[string]any{"username": "carol", "groups": []any{pk}})
			},
			wantBlocked: []string{`authentik group membership "user carol in group platform"`},
		},
		"PolicyBinding": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				var app map[string]any
				if err := json.Unmarshal(e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki"}), &app); err != nil {
					t.Fatal(err)
				}
				e.Seed(t, "policies/bindings", map[string]any{"target": app["pk"], "order": 0, "group": pk})
			},
			wantBlocked: []string{`authentik policy binding "group \"platform\" of group \"platform\" to target `},
		},
		"ListFails": {
			fault:   "/core/users/",
			wantErr: `cannot list the members of authentik group "platform"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newGroup(v1alpha1.GroupParameters{Name: "platform"})
			if _, err := kind.Reconcile(e, mg); err != nil {
				t.Fatal(err)
			}
			pk := meta.GetExternalName(mg)
			if tc.setup != nil {
				tc.setup(t, e, pk)
			}
			if tc.fault != "" {
				e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: tc.fault, Status: 503})
			}
			err := kind.Delete(e, mg)
			_, rerr := e.Server.Raw("core/groups", pk)
			gone := rerr != nil
			var be *adoption.DeletionBlockedError
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || gone {
					t.Fatalf("got %v (group gone: %v), want an error containing %q and the group kept", err, gone, tc.wantErr)
				}
			case tc.wantBlocked != nil:
				if !errors.As(err, &be) || gone {
					t.Fatalf("got %v (group gone: %v), want the deletion blocked", err, gone)
				}
				for _, w := range tc.wantBlocked {
					if m := mg.GetCondition(adoption.TypeDeletionBlocked).Message; !strings.Contains(m, w) {
						t.Errorf("DeletionBlocked message %q does not contain %s", m, w)
					}
				}
			default:
				if err != nil || !gone {
					t.Fatalf("got %v (group gone: %v), want it deleted", err, gone)
				}
			}
		})
	}
}
