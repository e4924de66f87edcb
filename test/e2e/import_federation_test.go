//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/importer"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A hand-made LDAP domain with its configuration, an identity provider with two protocols and
// their mappings is imported in observe mode: after the bind Secret the note names is created,
// every resource is Ready and Observed and Keystone is byte-identical. --mode adopt then makes
// every resource Adopted; the identity provider gains the marker line and nothing else, and the
// markerless objects (configuration, mappings, protocols) are unchanged. An identity provider
// with another installation's marker is refused, and a mapping a resource of the namespace
// already manages is skipped and referenced by that resource.
func TestImportFederation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-import-fed"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-import-fed"}, Spec: keystoneSpec("crossplane-system", "keystone-admin")}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)

	put := func(body any, path ...string) {
		t.Helper()
		if _, err := keystone.sc.Put(ctx, keystone.sc.ServiceURL(path...), body, nil, &gophercloud.RequestOpts{OkCodes: []int{200, 201}}); err != nil {
			t.Fatalf("cannot PUT %v by hand: %v", path, err)
		}
	}
	dt := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-import-fed", "description": "hand-made"})
	t.Cleanup(func() { keystone.deleteDomain(t, dt) })
	put(map[string]any{"config": map[string]any{"identity": map[string]any{"driver": "ldap"}, "ldap": map[string]any{
		"url": os.Getenv("LDAP_URL"), "user": os.Getenv("LDAP_BIND_DN"), "password": os.Getenv("LDAP_BIND_PASSWORD"),
		"suffix": os.Getenv("LDAP_SUFFIX"), "user_tree_dn": os.Getenv("LDAP_USERS_DN"), "user_objectclass": "inetOrgPerson",
		"user_id_attribute": "uid", "user_name_attribute": "uid", "user_mail_attribute": "mail",
		"user_enabled_invert": "true", "user_enabled_default": "false", "page_size": "50"}}}, "domains", dt, "config")
	rules := []map[string]any{{"local": []map[string]any{{"user": map[string]any{"name": "{0}"}}}, "remote": []map[string]any{{"type": "REMOTE_USER"}}}}
	put(map[string]any{"mapping": map[string]any{"rules": rules}}, "OS-FEDERATION", "mappings", "e2e-imp-map")
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "mappings", "e2e-imp-map") })
	put(map[string]any{"identity_provider": map[string]any{"domain_id": dt, "description": "hand-made\nSSO", "enabled": true,
		"remote_ids": []string{"https://e2e-import-fed.example.com"}, "authorization_ttl": 30}}, "OS-FEDERATION", "identity_providers", "e2e-imp-idp")
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-imp-idp") })
	put(map[string]any{"protocol": map[string]any{"mapping_id": "e2e-imp-map", "remote_id_attribute": "HTTP_OIDC_ISS"}},
		"OS-FEDERATION", "identity_providers", "e2e-imp-idp", "protocols", "openid")
	foreign := "hand-made\n[provider-identity: " + provenance.Marker{Installation: "someone-else",
		Resource: "IdentityProvider.keystone.identity.m.crossplane.io/x/y", Origin: provenance.OriginCreated}.Encode() + "]"
	put(map[string]any{"identity_provider": map[string]any{"domain_id": dt, "description": foreign, "enabled": false}},
		"OS-FEDERATION", "identity_providers", "e2e-imp-foreign")
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-imp-foreign") })

	// A mapping this installation manages from the namespace, used by a second protocol.
	owned := &nsksv1alpha1.Mapping{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "owned-rules"},
		Spec: nsksv1alpha1.MappingSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: cpc.GetName()}},
			ForProvider:         nsksv1alpha1.MappingParameters{ID: "e2e-imp-owned", Rules: []nsksv1alpha1.MappingRule{{Local: []nsksv1alpha1.MappingLocal{{User: &nsksv1alpha1.MappingUser{Name: ptr("{0}")}}}, Remote: []nsksv1alpha1.MappingRemote{{Type: "REMOTE_USER"}}}}},
		},
	}
	create(t, owned)
	waitReady(t, owned)
	put(map[string]any{"protocol": map[string]any{"mapping_id": "e2e-imp-owned"}}, "OS-FEDERATION", "identity_providers", "e2e-imp-idp", "protocols", "mapped")
	// The Mapping driver refuses to delete a mapping a protocol still names: the hand-made
	// protocol goes first (cleanups run last registered first).
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-imp-idp", "protocols", "mapped") })

	objects := map[string][]string{"domain": {"domains", dt}, "config": {"domains", dt, "config"},
		"idp": {"OS-FEDERATION", "identity_providers", "e2e-imp-idp"}, "mapping": {"OS-FEDERATION", "mappings", "e2e-imp-map"},
		"protocols": {"OS-FEDERATION", "identity_providers", "e2e-imp-idp", "protocols"},
		"foreign":   {"OS-FEDERATION", "identity_providers", "e2e-imp-foreign"}, "owned": {"OS-FEDERATION", "mappings", "e2e-imp-owned"}}
	before := map[string]json.RawMessage{}
	for k, p := range objects {
		before[k] = keystone.raw(t, p...)
	}

	dir := t.TempDir()
	opts := importer.Options{
		Source:    importer.Source{Kube: kube, ConfigKind: "ClusterProviderConfig", ConfigName: cpc.GetName()},
		Filter:    importer.Filter{Domain: "e2e-import-fed", Kinds: []string{"Domain", "DomainConfig", "IdentityProvider", "Mapping", "Protocol"}},
		Namespace: ns, Dir: dir, Mode: importer.ModeObserve,
	}
	s, err := importer.Run(ctx, opts)
	if err != nil {
		t.Fatalf("observe import: %v", err)
	}
	wantCounts := map[string]int{"Domain": 1, "DomainConfig": 1, "IdentityProvider": 1, "Mapping": 1, "Protocol": 2}
	if diff := cmp.Diff(wantCounts, s.Counts()); diff != "" {
		t.Fatalf("manifests per kind (-want +got):\n%s", diff)
	}
	var refused, skipped bool
	for _, sk := range s.Skipped {
		refused = refused || (sk.Refused && strings.Contains(sk.Describe, "e2e-imp-foreign") && strings.Contains(sk.Reason, "someone-else"))
		skipped = skipped || (!sk.Refused && strings.Contains(sk.Describe, "e2e-imp-owned") && strings.Contains(sk.Reason, ns+"/owned-rules"))
	}
	if !refused || !skipped {
		t.Errorf("skipped: %+v; want the foreign identity provider refused and the owned mapping skipped", s.Skipped)
	}
	proto, err := os.ReadFile(dir + "/protocol-e2e-imp-idp-mapped.yaml")
	if err != nil || !strings.Contains(string(proto), "mappingRef:\n      name: owned-rules") {
		t.Errorf("the protocol of the owned mapping (%v) does not reference its resource:\n%s", err, proto)
	}
	// The bind Secret, as the note says.
	secret := "ldap-bind-" + strings.ToLower(dt)
	if len(s.Notes) == 0 || !strings.Contains(strings.Join(s.Notes, "\n"), `"`+secret+`"`) {
		t.Fatalf("notes %q do not name the bind Secret %s", s.Notes, secret)
	}
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: secret},
		StringData: map[string]string{"username": os.Getenv("LDAP_BIND_DN"), "password": os.Getenv("LDAP_BIND_PASSWORD")}})

	objs := applyDir(t, dir)
	t.Cleanup(func() { observeAndDelete(t, objs) })
	waitProvenance(t, objs, "Observed")
	for k, p := range objects {
		if got := keystone.raw(t, p...); string(got) != string(before[k]) {
			t.Errorf("Keystone %s changed in observe mode:\nbefore %s\nafter  %s", k, before[k], got)
		}
	}
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != 0 {
		t.Fatalf("second observe import: %v, %d files rewritten; want none", err, s.Changed)
	}

	opts.Mode = importer.ModeAdopt
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != len(objs) {
		t.Fatalf("adopt import: %v, %d files rewritten; want %d", err, s.Changed, len(objs))
	}
	applyDir(t, dir)
	waitProvenance(t, objs, "Adopted")
	for k, p := range objects {
		after := keystone.raw(t, p...)
		if k == "idp" {
			var was, is map[string]map[string]any
			if json.Unmarshal(before[k], &was) != nil || json.Unmarshal(after, &is) != nil {
				t.Fatalf("identity provider: cannot read %s / %s", before[k], after)
			}
			desc, _ := is["identity_provider"]["description"].(string)
			rest, m, found, err := provenance.ExtractFromText(desc)
			if !found || err != nil || m.Installation != installationID || m.Origin != provenance.OriginAdopted {
				t.Errorf("identity provider after adoption: description %q, want this installation's adopted marker line", desc)
			}
			is["identity_provider"]["description"] = rest
			if diff := cmp.Diff(was, is); diff != "" {
				t.Errorf("adoption changed the identity provider beyond its marker line (-before +after):\n%s", diff)
			}
			continue
		}
		if k == "domain" {
			m, rest := withoutMarker(t, after)
			if mk, err := provenance.Parse(m); err != nil || mk.Installation != installationID || mk.Origin != provenance.OriginAdopted {
				t.Errorf("Keystone domain after adoption: marker %q (%v), want this installation's, adopted", m, err)
			}
			if _, was := withoutMarker(t, before[k]); !cmp.Equal(was, rest) {
				t.Errorf("Keystone domain: adoption changed more than the marker:\nbefore %s\nafter  %s", before[k], after)
			}
			continue
		}
		if string(after) != string(before[k]) {
			t.Errorf("Keystone %s changed by adoption (markers of markerless kinds live on the resources):\nbefore %s\nafter  %s", k, before[k], after)
		}
	}
}
