package importer

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// A brand names its flows and default application by reference when those are imported too,
// else by slug; a token names its user by reference, never carries its key, and its note says
// where the key goes; one-time and authentik-managed tokens and the default brand are skipped.
func TestImportBrandsAndTokens(t *testing.T) {
	e := authentiktest.New(t)
	login := akSeed(t, e, "flows/instances", map[string]any{"slug": "login", "name": "Login", "title": "Login", "designation": "authentication"})
	portal := akSeed(t, e, "core/applications", map[string]any{"name": "Portal", "slug": "portal"})
	var inval struct{ Pk string }
	_ = json.Unmarshal(e.Raw(t, "flows/instances", "default-invalidation-flow"), &inval)
	e.Seed(t, "core/brands", map[string]any{"domain": "login.example.com", "branding_title": "Login", "flow_authentication": login,
		"flow_invalidation": inval.Pk, "default_application": portal, "attributes": map[string]any{"settings": map[string]any{"locale": "de"}}})
	bob := akSeed(t, e, "core/users", map[string]any{"username": "bob"})
	akSeed(t, e, "core/tokens", map[string]any{"identifier": "bob-api", "intent": "api", "user": json.Number(bob), "description": "CI", "expiring": false})
	akSeed(t, e, "core/tokens", map[string]any{"identifier": "bob-recovery", "intent": "recovery", "user": json.Number(bob)})
	akSeed(t, e, "core/tokens", map[string]any{"identifier": "ak-outpost-token", "intent": "api", "user": json.Number(bob), "managed": "goauthentik.io/outpost/x"})
	key, _, err := e.Client.API.CoreAPI.CoreTokensViewKeyRetrieve(context.Background(), "bob-api").Execute()
	if err != nil {
		t.Fatal(err)
	}

	objs, err := ListAuthentik(context.Background(), e.Client.API, Filter{Kinds: []string{"Brand", "Token", "Flow", "User", "Application"}, Name: "*"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range p.Files {
		files[f.Name] = string(f.Data)
	}
	var brand string
	for n, f := range files {
		if strings.HasPrefix(n, "brand-login-example-com-") { // a name with dots gets a hash suffix
			brand = f
		}
	}
	token := files["token-bob-api.yaml"]
	for _, want := range []string{"authenticationFlowRef:\n      name: login", "invalidationFlow: default-invalidation-flow",
		"defaultApplicationRef:\n      name: portal", "locale: de", "domain: login.example.com"} {
		if !strings.Contains(brand, want) {
			t.Errorf("brand manifest lacks %q:\n%s", want, brand)
		}
	}
	for _, want := range []string{"identifier: bob-api", "userRef:\n      name: bob", "description: CI", "expiring: false", "intent: api"} {
		if !strings.Contains(token, want) {
			t.Errorf("token manifest lacks %q:\n%s", want, token)
		}
	}
	if strings.Contains(token, key.Key) {
		t.Error("the token manifest holds the key")
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "stays in authentik") {
		t.Errorf("notes: %v", p.Notes)
	}
	var skipped []string
	for _, s := range p.Skipped {
		if s.Kind == "Brand" || s.Kind == "Token" {
			// The embedded outpost's API token is named after its random UUID.
			skipped = append(skipped, embeddedToken.ReplaceAllString(s.Kind+" "+strings.SplitN(s.Describe, " (", 2)[0], "ak-outpost-<embedded>-api"))
		}
	}
	want := []string{`Brand authentik brand "authentik-default"`, `Token authentik token "ak-outpost-<embedded>-api"`,
		`Token authentik token "ak-outpost-token"`, `Token authentik token "bob-recovery"`}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped: -want +got:\n%s\nfiles: %v", diff, p.Files)
	}
}

var embeddedToken = regexp.MustCompile(`ak-outpost-[0-9a-f-]{36}-api`)
