//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/importer"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A hand-made authentik tree (a group and its child group, a user in the first, an OAuth2
// provider with its application, signed by a hand-made certificate-key pair and using a
// hand-made scope mapping, a SAML provider and a proxy provider with its application, a
// flow with an identification and a password stage bound into it, an expression policy bound
// to the application and to a stage binding, and the first group bound to the application)
// is imported in observe mode through a ClusterProviderConfig: every resource becomes Ready
// and Observed and every object stays byte-identical; a second run writes nothing; --mode
// adopt on the same directory (once the Secret the certificate-key pair's manifest names holds
// its certificate and key) then makes every resource Adopted: groups, users and
// applications gain the marker and nothing else, providers, flows, stages, bindings,
// policies, policy bindings, mappings and pairs (markerless, ADR 0002) do not change at all. A group carrying another installation's marker is refused and one this
// installation already manages is skipped; neither is written nor touched.
func TestImportAuthentik(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	ctx := context.Background()
	const ns = "e2e-ak-import"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-import"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)

	type ref struct{ kind, id string }
	objects := map[string]ref{}
	seed := func(name, kind, idField string, obj map[string]any) string {
		out := authentikAPI.seed(t, kind, obj)
		id := fmt.Sprint(out[idField])
		if f, ok := out[idField].(float64); ok {
			id = fmt.Sprint(int(f))
		}
		objects[name] = ref{kind, id}
		t.Cleanup(func() { authentikAPI.del(t, kind, id) })
		return id
	}
	staff := seed("staff", "core/groups", "pk", map[string]any{"name": "e2e-imp-staff", "attributes": map[string]any{"team": "platform"}})
	seed("juniors", "core/groups", "pk", map[string]any{"name": "e2e-imp-juniors", "parents": []any{staff}})
	seed("alice", "core/users", "pk", map[string]any{"username": "e2e-imp-alice", "name": "Alice", "email": "alice@example.com",
		"groups": []any{staff}, "attributes": map[string]any{"desk": "4F"}})
	certPEM, keyPEM, _ := testCert(t, "e2e-imp-signing.example.com")
	signing := seed("signing", "crypto/certificatekeypairs", "pk", map[string]any{"name": "e2e-imp-signing", "certificate_data": certPEM, "key_data": keyPEM})
	groupsMapping := seed("groups-mapping", "propertymappings/provider/scope", "pk", map[string]any{"name": "e2e-imp-groups", "scope_name": "groups",
		"description": "Your groups", "expression": "return {\"groups\": []}"})
	wiki := seed("wiki-provider", "providers/oauth2", "pk", map[string]any{"name": "e2e-imp-wiki", "signing_key": signing,
		"property_mappings": []any{groupsMapping}, "redirect_uris": []any{map[string]any{"matching_mode": "strict", "url": "https://wiki.example.com/cb"}}})
	seed("sso", "providers/saml", "pk", map[string]any{"name": "e2e-imp-sso", "acs_url": "https://sp.example.com/acs"})
	proxy := seed("proxy", "providers/proxy", "pk", map[string]any{"name": "e2e-imp-proxy", "external_host": "https://app.example.com", "mode": "forward_single"})
	seed("wiki", "core/applications", "slug", map[string]any{"name": "E2E Wiki", "slug": "e2e-imp-wiki", "provider": json.Number(wiki), "meta_description": "hand-made"})
	seed("proxied", "core/applications", "slug", map[string]any{"name": "E2E Proxied", "slug": "e2e-imp-proxied", "provider": json.Number(proxy)})
	login := seed("login", "flows/instances", "slug", map[string]any{"slug": "e2e-imp-login", "name": "E2E login", "title": "Welcome", "designation": "authentication"})
	password := seed("password", "stages/password", "pk", map[string]any{"name": "e2e-imp-password", "backends": []any{"authentik.core.auth.InbuiltBackend"}})
	identification := seed("identification", "stages/identification", "pk", map[string]any{"name": "e2e-imp-id",
		"user_fields": []any{"username", "email"}, "password_stage": password})
	prompt := seed("prompt", "stages/prompt/prompts", "pk", map[string]any{"name": "e2e-imp-nick", "field_key": "nick", "label": "Nickname", "type": "text"})
	seed("form", "stages/prompt/stages", "pk", map[string]any{"name": "e2e-imp-form", "fields": []any{prompt}})
	seed("write", "stages/user_write", "pk", map[string]any{"name": "e2e-imp-write", "create_users_group": staff})
	var flow map[string]any
	if err := json.Unmarshal(authentikAPI.raw(t, "flows/instances", login), &flow); err != nil {
		t.Fatal(err)
	}
	seed("bind-id", "flows/bindings", "pk", map[string]any{"target": flow["pk"], "stage": identification, "order": json.Number("10")})
	bindPassword := seed("bind-password", "flows/bindings", "pk", map[string]any{"target": flow["pk"], "stage": password, "order": json.Number("20")})
	admin := seed("policy", "policies/expression", "pk", map[string]any{"name": "e2e-imp-admin", "expression": "return request.user.is_superuser"})
	var app map[string]any
	if err := json.Unmarshal(authentikAPI.raw(t, "core/applications", "e2e-imp-wiki"), &app); err != nil {
		t.Fatal(err)
	}
	seed("policy-binding", "policies/bindings", "pk", map[string]any{"policy": admin, "target": app["pk"], "order": json.Number("0")})
	seed("group-binding", "policies/bindings", "pk", map[string]any{"group": staff, "target": app["pk"], "order": json.Number("1"), "negate": true})
	seed("stage-policy-binding", "policies/bindings", "pk", map[string]any{"policy": admin, "target": bindPassword, "order": json.Number("0")})

	foreignMarker := provenance.Marker{Installation: "someone-else", Resource: "Group.authentik.identity.m.crossplane.io/x/y", Origin: provenance.OriginCreated}.Encode()
	foreign := authentikAPI.seed(t, "core/groups", map[string]any{"name": "e2e-imp-foreign", "attributes": map[string]any{authentik.MarkerAttribute: foreignMarker}})
	ourMarker := provenance.Marker{Installation: installationID, Resource: "Group.authentik.identity.m.crossplane.io/" + ns + "/ours", Origin: provenance.OriginCreated}.Encode()
	managed := authentikAPI.seed(t, "core/groups", map[string]any{"name": "e2e-imp-managed", "attributes": map[string]any{authentik.MarkerAttribute: ourMarker}})
	untouched := map[string]ref{"foreign": {"core/groups", fmt.Sprint(foreign["pk"])}, "managed": {"core/groups", fmt.Sprint(managed["pk"])}}
	for _, r := range untouched {
		t.Cleanup(func() { authentikAPI.del(t, r.kind, r.id) })
	}
	before := map[string][]byte{}
	for k, r := range objects {
		before[k] = authentikAPI.raw(t, r.kind, r.id)
	}
	for k, r := range untouched {
		before[k] = authentikAPI.raw(t, r.kind, r.id)
	}

	dir := t.TempDir()
	opts := importer.Options{
		Source: importer.Source{Kube: kube, ConfigKind: "ClusterProviderConfig", ConfigName: cpc.GetName(), System: "authentik"},
		Filter: importer.Filter{Name: "e2e-imp-*"}, Namespace: ns, Dir: dir, Mode: importer.ModeObserve,
	}
	s, err := importer.Run(ctx, opts)
	if err != nil {
		t.Fatalf("observe import: %v", err)
	}
	wantCounts := map[string]int{"Group": 2, "User": 1, "OAuth2Provider": 1, "SAMLProvider": 1, "ProxyProvider": 1, "Application": 2,
		"Flow": 1, "Prompt": 1, "Stage": 4, "FlowStageBinding": 2, "CertificateKeyPair": 1, "PropertyMapping": 1, "Policy": 1, "PolicyBinding": 3}
	if diff := cmp.Diff(wantCounts, s.Counts()); diff != "" {
		t.Fatalf("manifests per kind (-want +got):\n%s", diff)
	}
	checkAkSkips(t, s, untouched["foreign"].id, untouched["managed"].id)

	objs := applyDir(t, dir)
	t.Cleanup(func() { observeAndDelete(t, objs) })
	waitProvenance(t, objs, "Observed")
	for k, r := range objects {
		if got := authentikAPI.raw(t, r.kind, r.id); !bytes.Equal(got, before[k]) {
			t.Errorf("authentik %s changed in observe mode:\nbefore %s\nafter  %s", k, before[k], got)
		}
	}

	// Idempotent: the same files, none rewritten.
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != 0 {
		t.Fatalf("second observe import: %v, %d files rewritten; want none", err, s.Changed)
	}

	// What the certificate-key pair's note asks for before adopting: its certificate and key,
	// in the Secret its manifest names.
	tlsSecret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keypair-" + signing}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{corev1.TLSCertKey: []byte(certPEM), corev1.TLSPrivateKeyKey: []byte(keyPEM)}}
	create(t, tlsSecret)

	opts.Mode = importer.ModeAdopt
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != len(objs) {
		t.Fatalf("adopt import: %v, %d files rewritten; want %d", err, s.Changed, len(objs))
	}
	checkAkSkips(t, s, untouched["foreign"].id, untouched["managed"].id)
	applyDir(t, dir)
	waitProvenance(t, objs, "Adopted")
	for k, r := range objects {
		after := authentikAPI.raw(t, r.kind, r.id)
		m, rest := akWithoutMarker(t, r.kind, after)
		if r.kind == "policies/bindings" {
			// No marker in authentik, but a binding shows its group (or user) with its
			// attributes, where the group's adoption put the group's marker.
			if !reflect.DeepEqual(akWithoutEmbeddedMarkers(t, after), akWithoutEmbeddedMarkers(t, before[k])) {
				t.Errorf("authentik %s changed on adoption:\nbefore %s\nafter  %s", k, before[k], after)
			}
			continue
		}
		if !strings.HasPrefix(r.kind, "core/") {
			// No marker in authentik: the resource's annotation is the record.
			if !bytes.Equal(after, before[k]) {
				t.Errorf("authentik %s changed on adoption:\nbefore %s\nafter  %s", k, before[k], after)
			}
			continue
		}
		if mk, err := provenance.Parse(m); err != nil || mk.Installation != installationID || mk.Origin != provenance.OriginAdopted {
			t.Errorf("authentik %s after adoption: marker %q (%v), want this installation's, adopted", k, m, err)
		}
		if _, was := akWithoutMarker(t, r.kind, before[k]); !reflect.DeepEqual(was, rest) {
			t.Errorf("authentik %s: adoption changed more than the marker:\nbefore %s\nafter  %s", k, before[k], after)
		}
	}
	for _, o := range objs {
		if k := o.GetKind(); k != "Group" && k != "User" && k != "Application" {
			cur := o.DeepCopy()
			if err := kube.Get(ctx, client.ObjectKeyFromObject(o), cur); err != nil || cur.GetAnnotations()[adoption.AnnotationMarker] == "" {
				t.Errorf("%s %s carries no marker annotation after adoption (%v)", o.GetKind(), o.GetName(), err)
			}
		}
	}
	for k, r := range untouched {
		if got := authentikAPI.raw(t, r.kind, r.id); !bytes.Equal(got, before[k]) {
			t.Errorf("the %s group was touched:\nbefore %s\nafter  %s", k, before[k], got)
		}
	}
}

// checkAkSkips checks that the foreign group was refused and the managed group skipped.
func checkAkSkips(t *testing.T, s importer.Summary, foreignID, managedID string) {
	t.Helper()
	var refused, skipped bool
	for _, sk := range s.Skipped {
		refused = refused || (sk.Refused && strings.Contains(sk.Describe, foreignID) && strings.Contains(sk.Reason, "someone-else"))
		skipped = skipped || (!sk.Refused && strings.Contains(sk.Describe, managedID) && strings.Contains(sk.Reason, "already managed"))
	}
	if !refused || !skipped {
		t.Errorf("skipped: %+v; want the foreign group %s refused and the managed group %s skipped", s.Skipped, foreignID, managedID)
	}
	for _, f := range s.Files {
		if f.ID == foreignID || f.ID == managedID {
			t.Errorf("%s was written for %s, which must be left out", f.Name, f.ID)
		}
	}
}

// akWithoutMarker returns an authentik object's marker (an attribute of a group or user, the
// last line of an application's description) and the object without it.
func akWithoutMarker(t *testing.T, kind string, raw []byte) (string, map[string]any) {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "core/applications":
		d, _ := o["meta_description"].(string)
		rest, m, found, _ := provenance.ExtractFromText(d)
		o["meta_description"] = rest
		if found {
			return m.Encode(), o
		}
	case "core/groups", "core/users":
		attrs, _ := o["attributes"].(map[string]any)
		m, _ := attrs[authentik.MarkerAttribute].(string)
		delete(attrs, authentik.MarkerAttribute)
		// A group shows its members and a user its groups, each with its attributes, which
		// carry their own markers once adopted; authentik stamps a user's last_updated on
		// every write.
		for _, embedded := range []string{"users_obj", "groups_obj"} {
			l, _ := o[embedded].([]any)
			for _, e := range l {
				if em, ok := e.(map[string]any); ok {
					a, _ := em["attributes"].(map[string]any)
					delete(a, authentik.MarkerAttribute)
				}
			}
		}
		delete(o, "last_updated")
		return m, o
	}
	return "", o
}

// akWithoutEmbeddedMarkers returns a policy binding without the markers of the group or user
// it shows.
func akWithoutEmbeddedMarkers(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	for _, embedded := range []string{"group_obj", "user_obj"} {
		if em, ok := o[embedded].(map[string]any); ok {
			a, _ := em["attributes"].(map[string]any)
			delete(a, authentik.MarkerAttribute)
		}
	}
	return o
}
