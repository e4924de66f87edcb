package application

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// Deleting an application deletes its policy bindings, entitlements and backchannel
// providers: the engine refuses while there are any, naming them, and leaves everything as it
// was; its own provider is kept by authentik and is no reason to wait.
func TestDeleteWithDependents(t *testing.T) {
	cases := map[string]struct {
		setup       func(t *testing.T, e *authentiktest.Env, pbm string)
		check       func(t *testing.T, e *authentiktest.Env)
		fault       string
		wantBlocked []string
		wantErr     string
	}{
		"ItsProviderIsNoDependent": {
			setup: func(t *testing.T, e *authentiktest.Env, _ string) {
				p := seedMap(t, e, "providers/oauth2", map[string]any{"name": "kept"})
				pk := int32(p["pk"].(float64))
				patchApp(t, e, "grafana", api.PatchedApplicationRequest{Provider: *api.NewNullableInt32(&pk)})
			},
			check: func(t *testing.T, e *authentiktest.Env) {
				if l, _, err := e.Client.API.ProvidersAPI.ProvidersOauth2List(e.Ctx).Name("kept").Execute(); err != nil || len(l.Results) != 1 {
					t.Errorf("the application's provider went with it: %v", err)
				}
			},
		},
		"PolicyBindingOfAGroup": {
			setup: func(t *testing.T, e *authentiktest.Env, pbm string) {
				g := seedMap(t, e, "core/groups", map[string]any{"name": "staff"})
				e.Seed(t, "policies/bindings", map[string]any{"target": pbm, "order": 3, "group": g["pk"]})
			},
			wantBlocked: []string{`authentik policy binding "group \"staff\" on application \"grafana\", order 3"`, "not created or adopted by this installation"},
		},
		"Entitlement": {
			setup: func(t *testing.T, e *authentiktest.Env, pbm string) {
				e.Seed(t, "core/application_entitlements", map[string]any{"name": "admins", "app": pbm})
			},
			wantBlocked: []string{`authentik application entitlement "admins of application grafana"`},
		},
		"BackchannelProvider": {
			setup: func(t *testing.T, e *authentiktest.Env, _ string) {
				p := seedMap(t, e, "providers/saml", map[string]any{"name": "scim-ish", "acs_url": "https://sp.example.com/acs"})
				patchApp(t, e, "grafana", api.PatchedApplicationRequest{BackchannelProviders: []int32{int32(p["pk"].(float64))}})
			},
			wantBlocked: []string{`authentik SAML provider "scim-ish"`},
		},
		"ListFails": {
			fault:   "/policies/bindings/",
			wantErr: `cannot find out what deleting authentik application "grafana"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMR("grafana")
			reconcile(t, e, mg)
			pbm := raw(t, e, "grafana")["pbm_uuid"].(string)
			if tc.setup != nil {
				tc.setup(t, e, pbm)
			}
			if tc.fault != "" {
				e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: tc.fault, Status: 503})
			}
			before := e.Raw(t, "core/applications", "grafana")
			err := kind.Delete(e, mg)
			gone := !exists(e, "grafana")
			var be *adoption.DeletionBlockedError
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || gone {
					t.Fatalf("got %v (application gone: %v), want an error containing %q and the application kept", err, gone, tc.wantErr)
				}
			case tc.wantBlocked != nil:
				if !errors.As(err, &be) || gone {
					t.Fatalf("got %v (application gone: %v), want the deletion blocked", err, gone)
				}
				c := mg.GetCondition(adoption.TypeDeletionBlocked)
				for _, w := range tc.wantBlocked {
					if !strings.Contains(c.Message, w) {
						t.Errorf("DeletionBlocked message %q does not name %s", c.Message, w)
					}
				}
				if c.Status != corev1.ConditionTrue || c.Reason != adoption.ReasonForeignDependents {
					t.Errorf("DeletionBlocked: %s %s", c.Status, c.Reason)
				}
				if !bytes.Equal(before, e.Raw(t, "core/applications", "grafana")) {
					t.Errorf("the application changed although its deletion was refused")
				}
			default:
				if err != nil || !gone {
					t.Fatalf("got %v (application gone: %v), want it deleted", err, gone)
				}
			}
			if tc.check != nil {
				tc.check(t, e)
			}
		})
	}
}

func seedMap(t *testing.T, e *authentiktest.Env, kind string, obj map[string]any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Seed(t, kind, obj), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func exists(e *authentiktest.Env, slug string) bool {
	_, err := e.Server.Raw("core/applications", slug)
	return err == nil
}

func patchApp(t *testing.T, e *authentiktest.Env, slug string, req api.PatchedApplicationRequest) {
	t.Helper()
	if _, _, err := e.Client.API.CoreAPI.CoreApplicationsPartialUpdate(e.Ctx, slug).PatchedApplicationRequest(req).Execute(); err != nil {
		t.Fatal(err)
	}
}
