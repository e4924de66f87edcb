package oauth2provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Deleting a provider detaches the applications that use it (as provider or backchannel
// provider): the engine refuses while one does, and both stay as they were.
func TestDeleteWithDependents(t *testing.T) {
	foreign := provenance.Marker{Installation: "other-cluster", Resource: "Application.authentik.identity.crossplane.io/x", Origin: provenance.OriginCreated}
	cases := map[string]struct {
		app         func(pk any) map[string]any
		fault       string
		wantBlocked []string
		wantErr     string
	}{
		"NoApplication": {},
		"HandMadeApplication": {
			app:         func(pk any) map[string]any { return map[string]any{"name": "Hand", "slug": "hand", "provider": pk} },
			wantBlocked: []string{`authentik application "hand" (ID hand, not created or adopted by this installation)`},
		},
		"HandMadeApplicationsBackchannel": {
			app: func(pk any) map[string]any {
				return map[string]any{"name": "Hand", "slug": "hand", "backchannel_providers": []any{pk}}
			},
			wantBlocked: []string{`authentik application "hand"`},
		},
		"AnotherInstallationsApplication": {
			app: func(pk any) map[string]any {
				return map[string]any{"name": "Theirs", "slug": "theirs", "provider": pk, "meta_description": provenance.EmbedInText("", foreign)}
			},
			wantBlocked: []string{`authentik application "theirs"`, `managed by another installation "other-cluster"`},
		},
		"ApplicationReadFails": {
			app:     func(pk any) map[string]any { return map[string]any{"name": "Hand", "slug": "hand", "provider": pk} },
			fault:   "/core/applications/hand/",
			wantErr: `cannot read application "hand" that uses provider "grafana"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMR("grafana")
			reconcile(t, e, mg)
			id := meta.GetExternalName(mg)
			var slug string
			if tc.app != nil {
				a := tc.app(mustPK(t, id))
				slug = a["slug"].(string)
				e.Seed(t, "core/applications", a)
			}
			if tc.fault != "" {
				e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: tc.fault, Status: 503})
			}
			err := kind.Delete(e, mg)
			_, rerr := e.Server.Raw("providers/oauth2", id)
			gone := rerr != nil
			var be *adoption.DeletionBlockedError
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || gone {
					t.Fatalf("got %v (provider gone: %v), want an error containing %q and the provider kept", err, gone, tc.wantErr)
				}
			case tc.wantBlocked != nil:
				if !errors.As(err, &be) || gone {
					t.Fatalf("got %v (provider gone: %v), want the deletion blocked", err, gone)
				}
				for _, w := range tc.wantBlocked {
					if m := mg.GetCondition(adoption.TypeDeletionBlocked).Message; !strings.Contains(m, w) {
						t.Errorf("DeletionBlocked message %q does not contain %s", m, w)
					}
				}
			default:
				if err != nil || !gone {
					t.Fatalf("got %v (provider gone: %v), want it deleted", err, gone)
				}
			}
			if slug != "" && tc.fault == "" {
				e.Server.ClearFaults()
				a := raw(t, e, "core/applications", slug)
				bc, _ := a["backchannel_providers"].([]any)
				if fmt.Sprint(a["provider"]) != id && (len(bc) != 1 || fmt.Sprint(bc[0]) != id) {
					t.Errorf("the application lost the provider %s although its deletion was refused: %v, %v", id, a["provider"], bc)
				}
			}
		})
	}
}
