package application

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// refreshes records the refreshes asked for, by provider ID, with the kinds asked.
type refreshes map[string][]string

func (r refreshes) RefreshByExternalName(_ context.Context, kind, name string) error {
	r[name] = append(r[name], kind)
	return nil
}

// An application's create and change of provider refresh the resources of the providers it
// assigns or releases, of every provider kind; a poll in sync, another change, a failed write
// or a delete refresh nothing.
func TestProvidersRefreshed(t *testing.T) {
	e := authentiktest.New(t)
	seed := func(name string) string {
		var p map[string]any
		if err := json.Unmarshal(e.Seed(t, "providers/oauth2", map[string]any{"name": name}), &p); err != nil {
			t.Fatal(err)
		}
		return strconv.Itoa(int(p["pk"].(float64)))
	}
	first, second := seed("first"), seed("second")
	got := refreshes{}
	k := authentiktest.Kind[mr, api.Application]{
		GroupKind: kind.GroupKind,
		NewDriver: func(c shared.Client) adoption.Driver[mr, api.Application] {
			d := New(c)
			d.Providers = got
			return d
		},
	}
	step := func(name string, want refreshes) {
		t.Helper()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: refreshes (-want +got):\n%s", name, diff)
		}
		clear(got)
	}
	every := func(ids ...string) refreshes {
		r := refreshes{}
		for _, id := range ids {
			r[id] = assignableKinds
		}
		return r
	}

	mg := newMR("grafana", func(mg *v1alpha1.Application) { mg.Spec.ForProvider.OAuth2ProviderID = &first })
	if r, err := k.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("create: %+v, %v", r, err)
	}
	step("create", every(first))

	if _, err := k.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	step("a poll in sync", refreshes{})

	mg.Spec.ForProvider.Description = ptr("Dashboards")
	if r, err := k.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("description change: %+v, %v", r, err)
	}
	step("a change other than the provider", refreshes{})

	mg.Spec.ForProvider.OAuth2ProviderID = &second
	if r, err := k.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("provider change: %+v, %v", r, err)
	}
	step("a change of provider", every(first, second))

	twin := newMR("grafana", func(mg *v1alpha1.Application) {
		mg.Name = "grafana-twin"
		mg.Spec.ForProvider.OAuth2ProviderID = &first
	})
	if _, err := k.Reconcile(e, twin); err == nil {
		t.Fatal("a second application with the slug: want a conflict")
	}
	step("a refused create", refreshes{})

	ext := k.External(e)
	if _, err := ext.Observe(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := ext.Delete(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	step("delete", refreshes{})
}
