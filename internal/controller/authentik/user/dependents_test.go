package user

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// Deleting a user deletes its API tokens, app passwords and policy bindings: the engine
// refuses while it has any. One-time links and memberships go with the user.
func TestDeleteWithDependents(t *testing.T) {
	cases := map[string]struct {
		setup       func(t *testing.T, e *authentiktest.Env, pk string)
		fault       string
		wantBlocked []string
		wantErr     string
	}{
		"MembershipsAndRecoveryLinksAreTheUsers": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				e.Seed(t, "core/tokens", map[string]any{"identifier": "dave-recovery", "intent": "recovery", "user": json.Number(pk)})
			},
		},
		"APIToken": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				e.Seed(t, "core/tokens", map[string]any{"identifier": "dave-ci", "intent": "api", "user": json.Number(pk)})
			},
			wantBlocked: []string{`authentik token "api token dave-ci of user dave" (ID dave-ci, not created or adopted by this installation)`},
		},
		"PolicyBinding": {
			setup: func(t *testing.T, e *authentiktest.Env, pk string) {
				var app map[string]any
				if err := json.Unmarshal(e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki"}), &app); err != nil {
					t.Fatal(err)
				}
				e.Seed(t, "policies/bindings", map[string]any{"target": app["pk"], "order": 0, "user": json.Number(pk)})
			},
			wantBlocked: []string{`authentik policy binding "user \"dave\" of user \"dave\" to target `},
		},
		"ListFails": {
			fault:   "/core/tokens/",
			wantErr: `cannot list the authentik tokens of user "dave"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			var g map[string]any
			if err := json.Unmarshal(e.Seed(t, "core/groups", map[string]any{"name": "staff"}), &g); err != nil {
				t.Fatal(err)
			}
			mg := &v1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "dave"}, Spec: v1alpha1.UserSpec{ForProvider: v1alpha1.UserParameters{
				Username: "dave", Groups: []string{g["pk"].(string)}}}}
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
			_, rerr := e.Server.Raw("core/users", pk)
			gone := rerr != nil
			var be *adoption.DeletionBlockedError
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || gone {
					t.Fatalf("got %v (user gone: %v), want an error containing %q and the user kept", err, gone, tc.wantErr)
				}
			case tc.wantBlocked != nil:
				if !errors.As(err, &be) || gone {
					t.Fatalf("got %v (user gone: %v), want the deletion blocked", err, gone)
				}
				for _, w := range tc.wantBlocked {
					if m := mg.GetCondition(adoption.TypeDeletionBlocked).Message; !strings.Contains(m, w) {
						t.Errorf("DeletionBlocked message %q does not contain %s", m, w)
					}
				}
			default:
				if err != nil || !gone {
					t.Fatalf("got %v (user gone: %v), want it deleted", err, gone)
				}
			}
		})
	}
}
