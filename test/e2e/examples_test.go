//go:build e2e

package e2e

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Every example outside examples/platform (whose composites the render tests validate) is
// accepted by the API server with its CRDs and validation rules (server-side dry run), with the
// dev environment's placeholders filled in as `make dev` does. The namespaced examples' team-a
// is a namespace of its own here (a dry run needs the namespace to exist, and other tests use
// team-a).
func TestExamplesAreAccepted(t *testing.T) {
	t.Parallel()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "e2e-examples"}}
	if err := kube.Create(context.Background(), ns); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..", "examples")
	fill := strings.NewReplacer("${KEYSTONE_URL}", "http://127.0.0.1:5000/v3", "${AUTHENTIK_URL}", "http://127.0.0.1:9000",
		"${LDAP_BIND_PASSWORD}", "example-bind-password", "namespace: team-a", "namespace: e2e-examples")
	// Walked and read through an os.Root: nothing outside examples/ is read, even through a link.
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }() // read only
	n := 0
	err = fs.WalkDir(r.FS(), ".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "platform":
			return filepath.SkipDir
		case d.IsDir() || filepath.Ext(path) != ".yaml":
			return nil
		}
		b, err := fs.ReadFile(r.FS(), path)
		if err != nil {
			return err
		}
		f := filepath.Join(t.TempDir(), d.Name())
		if err := os.WriteFile(f, []byte(fill.Replace(string(b))), 0o600); err != nil {
			return err
		}
		// A create, not an apply: an apply would be an update of the test's own ProviderConfigs
		// of the same names. The API server validates and admits an object before it finds the
		// name taken, so AlreadyExists means the example was accepted.
		out, err := kubectl(t, "create", "--dry-run=server", "-f", f)
		if err != nil && !onlyAlreadyExists(out) {
			t.Errorf("%s: %v\n%s", filepath.Join(root, path), err, out)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("want every example checked, found only %d files under %s", n, root)
	}
}

// onlyAlreadyExists: every error kubectl printed is an AlreadyExists.
func onlyAlreadyExists(out string) bool {
	errs := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Error from server") {
			if !strings.Contains(l, "(AlreadyExists)") {
				return false
			}
			errs++
		}
	}
	return errs > 0
}
