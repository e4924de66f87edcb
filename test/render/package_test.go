//go:build e2e

package render

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestConfigurationPackage builds the Configuration package as `make build` does (xpkg build
// lints it) and checks what it carries.
func TestConfigurationPackage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "configuration.xpkg")
	if _, err := crossplane(ctx, "xpkg", "build", "--package-root="+filepath.Join(root, "cluster", "configuration"),
		"--examples-root="+filepath.Join(root, "examples", "platform"), "--package-file="+pkg); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "extracted.gz")
	if _, err := crossplane(ctx, "xpkg", "extract", "--from-xpkg", pkg, "-o", out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	objs := regexp.MustCompile(`(?m)^kind: (\S+)\n(?:.*\n)*?  name: (\S+)$`).FindAllSubmatch(b, -1)
	got := make([]string, 0, len(objs))
	for _, m := range objs {
		got = append(got, string(m[1])+"/"+string(m[2]))
	}
	sort.Strings(got)
	want := []string{
		"Composition/authentikfederation",
		"Composition/keystoneidentitybackend",
		"Composition/serviceclaim",
		"Composition/tenant",
		"CompositeResourceDefinition/tenants.platform.identity.crossplane.io",
		"CompositeResourceDefinition/authentikfederations.platform.identity.crossplane.io",
		"CompositeResourceDefinition/keystoneidentitybackends.platform.identity.crossplane.io",
		"CompositeResourceDefinition/serviceclaims.platform.identity.crossplane.io",
		"Configuration/configuration-identity-platform",
	}
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("package contents (-want +got):\n%s", diff)
	}
	// Crossplane v2 XRDs only: a v1 XRD (and any claim) makes Crossplane warn "CompositeResourceDefinition
	// v1 is deprecated".
	if n := bytes.Count(b, []byte("apiVersion: apiextensions.crossplane.io/v2\nkind: CompositeResourceDefinition")); n != 4 {
		t.Errorf("want the 4 XRDs as apiextensions.crossplane.io/v2, found %d", n)
	}
	if bytes.Contains(b, []byte("claimNames")) {
		t.Errorf("an XRD still offers a claim")
	}
	for _, dep := range []string{"provider-identity", "function-patch-and-transform", "function-identity-platform"} {
		if !bytes.Contains(b, []byte("xpkg.crossplane.io/crossplane-contrib/"+dep)) {
			t.Errorf("the Configuration does not depend on %s", dep)
		}
	}
}
