//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The authentik API server (cluster/authentik-apiserver) runs as its own process, started by
// hack/with-services.sh. Tests talk to it as an administrator would, through its API with the
// token, and through its test hooks under /_test/ (seed, raw, faults, counts, violations,
// password). None of these requests go through the counting transport: counter holds the
// provider's requests only.
type authentikEnv struct {
	url, token string
	hc         *http.Client
}

var (
	authentikAPI *authentikEnv
	// restConfig reaches the test control plane (for kubectl).
	restConfig *rest.Config
)

// authentikEnvVars are required like the Keystone ones.
var authentikEnvVars = []string{"AUTHENTIK_URL", "AUTHENTIK_TOKEN"}

// setupAuthentik connects to the API server and creates the Secret and the ProviderConfig
// `authentik` every authentik test uses, with the same installation ID as the Keystone one.
func setupAuthentik(ctx context.Context) error {
	authentikAPI = &authentikEnv{url: strings.TrimSuffix(os.Getenv("AUTHENTIK_URL"), "/"), token: os.Getenv("AUTHENTIK_TOKEN"), hc: &http.Client{Timeout: 30 * time.Second}}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "authentik-token"},
		StringData: map[string]string{"token": authentikAPI.token}}
	if err := kube.Create(ctx, sec); err != nil {
		return err
	}
	return kube.Create(ctx, authentikProviderConfig("authentik", "authentik-token"))
}

// authentikViolations reports, after the run, every request the provider sent that
// authentik's openapi document rejects. It returns false when there was any.
func authentikViolations(ctx context.Context) bool {
	var v []map[string]any
	code, err := authentikAPI.call(ctx, http.MethodGet, "/_test/violations", nil, &v)
	if err != nil || code != http.StatusOK {
		fmt.Fprintf(os.Stderr, "cannot read the authentik API server's violations: %d %v\n", code, err)
		return false
	}
	for _, x := range v {
		fmt.Fprintf(os.Stderr, "authentik API contract violation: %v\n", x)
	}
	return len(v) == 0
}

func authentikProviderConfig(name, secret string) *identityv1alpha1.ProviderConfig {
	return &identityv1alpha1.ProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: identityv1alpha1.ProviderConfigSpec{
			InstallationID: installationID,
			Authentik: &identityv1alpha1.AuthentikConfig{
				URL:            os.Getenv("AUTHENTIK_URL"),
				TokenSecretRef: identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: secret}, Key: "token"},
			},
		},
	}
}

// call sends one request; paths under /api/v3 carry the token. out, when set, receives the
// decoded JSON answer. The helpers below, which take a *testing.T, call it with
// context.Background(): they also run in t.Cleanup, where t.Context() is already canceled
// (a.hc's timeout bounds every request).
func (a *authentikEnv) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.url+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if strings.HasPrefix(path, "/api/v3/") {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if out != nil && len(b) > 0 && resp.StatusCode < 300 {
		if raw, ok := out.(*[]byte); ok {
			*raw = b
			return resp.StatusCode, nil
		}
		return resp.StatusCode, json.Unmarshal(b, out)
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return resp.StatusCode, nil
}

// seed stores an object directly (no marker of the provider unless given), as a hand-made
// object, and returns it as the API renders it.
func (a *authentikEnv) seed(t *testing.T, kind string, obj map[string]any) map[string]any {
	t.Helper()
	var out map[string]any
	if _, err := a.call(context.Background(), http.MethodPost, "/_test/seed/"+kind, obj, &out); err != nil {
		t.Fatalf("cannot seed %s: %v", kind, err)
	}
	return out
}

// raw returns an object exactly as GET answers it, for byte-for-byte comparisons.
func (a *authentikEnv) raw(t *testing.T, kind, id string) []byte {
	t.Helper()
	var out []byte
	if _, err := a.call(context.Background(), http.MethodGet, "/_test/raw/"+kind+"/"+id, nil, &out); err != nil {
		t.Fatalf("cannot read %s %s raw: %v", kind, id, err)
	}
	return out
}

// object decodes an object read raw.
func (a *authentikEnv) object(t *testing.T, kind, id string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.raw(t, kind, id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// exists reports whether the object exists.
func (a *authentikEnv) exists(t *testing.T, kind, id string) bool {
	t.Helper()
	code, err := a.call(context.Background(), http.MethodGet, "/_test/raw/"+kind+"/"+id, nil, nil)
	if code == http.StatusNotFound {
		return false
	}
	if err != nil {
		t.Fatalf("cannot read %s %s: %v", kind, id, err)
	}
	return true
}

// list returns the results of a list endpoint with the given query, every page.
func (a *authentikEnv) list(t *testing.T, kind string, q url.Values) []map[string]any {
	t.Helper()
	var all []map[string]any
	for page := 1; page < 100; page++ {
		q.Set("page", fmt.Sprint(page))
		var l struct {
			Pagination struct {
				Next int `json:"next"`
			} `json:"pagination"`
			Results []map[string]any `json:"results"`
		}
		if _, err := a.call(context.Background(), http.MethodGet, "/api/v3/"+kind+"/?"+q.Encode(), nil, &l); err != nil {
			t.Fatalf("cannot list %s: %v", kind, err)
		}
		all = append(all, l.Results...)
		if l.Pagination.Next == 0 {
			return all
		}
	}
	t.Fatalf("listing %s did not end", kind)
	return nil
}

// patch changes an object by hand through the API.
func (a *authentikEnv) patch(t *testing.T, kind, id string, body map[string]any) {
	t.Helper()
	if _, err := a.call(context.Background(), http.MethodPatch, "/api/v3/"+kind+"/"+id+"/", body, nil); err != nil {
		t.Fatalf("cannot patch %s %s by hand: %v", kind, id, err)
	}
}

// del deletes an object by hand, ignoring 404.
func (a *authentikEnv) del(t *testing.T, kind, id string) {
	t.Helper()
	if code, err := a.call(context.Background(), http.MethodDelete, "/api/v3/"+kind+"/"+id+"/", nil, nil); err != nil && code != http.StatusNotFound {
		t.Fatalf("cannot delete %s %s by hand: %v", kind, id, err)
	}
}

// fault makes matching requests fail (see authentikapiserver.Fault) until the test ends or
// clearFaults.
func (a *authentikEnv) fault(t *testing.T, f map[string]any) {
	t.Helper()
	if _, err := a.call(context.Background(), http.MethodPost, "/_test/faults", f, nil); err != nil {
		t.Fatalf("cannot inject fault: %v", err)
	}
	t.Cleanup(func() { a.clearFaults(t) })
}

func (a *authentikEnv) clearFaults(t *testing.T) {
	t.Helper()
	if _, err := a.call(context.Background(), http.MethodDelete, "/_test/faults", nil, nil); err != nil {
		t.Fatalf("cannot clear faults: %v", err)
	}
}

// password returns the password last set for a user, and whether one was.
func (a *authentikEnv) password(t *testing.T, pk string) (string, bool) {
	t.Helper()
	var out struct {
		Password string `json:"password"`
	}
	code, err := a.call(context.Background(), http.MethodGet, "/_test/password/"+pk, nil, &out)
	if code == http.StatusNotFound {
		return "", false
	}
	if err != nil {
		t.Fatalf("cannot read the password of user %s: %v", pk, err)
	}
	return out.Password, true
}

// noNewViolations fails the test when the provider sent, during it, a request authentik's
// openapi document rejects.
func (a *authentikEnv) noNewViolations(t *testing.T) {
	t.Helper()
	count := func() []map[string]any {
		var v []map[string]any
		if _, err := a.call(context.Background(), http.MethodGet, "/_test/violations", nil, &v); err != nil {
			t.Fatalf("cannot read violations: %v", err)
		}
		return v
	}
	before := len(count())
	t.Cleanup(func() {
		for _, v := range count()[before:] {
			t.Errorf("authentik API contract violation: %v", v)
		}
	})
}

// markerOf reads the provenance marker of a raw object's attributes.
func akMarkerOf(t *testing.T, obj map[string]any) provenance.Marker {
	t.Helper()
	attrs, _ := obj["attributes"].(map[string]any)
	s, _ := attrs[authentik.MarkerAttribute].(string)
	m, err := provenance.Parse(s)
	if err != nil {
		t.Fatalf("no readable marker in %v: %v", obj["attributes"], err)
	}
	return m
}

// mustReject asserts that the API server refuses obj with a message containing want.
func akReject(t *testing.T, obj client.Object, want string) {
	t.Helper()
	err := kube.Create(context.Background(), obj)
	if err == nil {
		_ = kube.Delete(context.Background(), obj)
		t.Fatalf("%s was accepted; want it rejected with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s rejected with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

// kubectl runs the kubectl of KUBEBUILDER_ASSETS against the test control plane.
func kubectlRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := kubectl(t, args...)
	if err != nil {
		t.Fatalf("kubectl %v: %v\n%s", args, err, out)
	}
	return out
}

// kubectl runs kubectl on the test control plane and returns its output and error.
func kubectl(t *testing.T, args ...string) (string, error) {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["e2e"] = &clientcmdapi.Cluster{Server: restConfig.Host, CertificateAuthorityData: restConfig.CAData}
	kc.AuthInfos["e2e"] = &clientcmdapi.AuthInfo{ClientCertificateData: restConfig.CertData, ClientKeyData: restConfig.KeyData, Token: restConfig.BearerToken}
	kc.Contexts["e2e"] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: "e2e"}
	kc.CurrentContext = "e2e"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl"), append([]string{"--kubeconfig", path}, args...)...).CombinedOutput()
	return string(out), err
}

// writes returns the provider's writes to the authentik API in a counter delta.
func authentikWrites(d map[string]int) map[string]int {
	w := map[string]int{}
	for k, v := range d {
		if strings.Contains(k, " /api/v3/") && !strings.HasPrefix(k, "GET ") {
			w[k] = v
		}
	}
	return w
}
