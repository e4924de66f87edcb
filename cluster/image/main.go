// Command build-image writes a single-binary OCI runtime image as a tarball, without Docker:
// an empty image plus one layer holding the static binary, run as a non-root user. `crossplane
// xpkg build --embed-runtime-image-tarball` embeds it into a provider or function package.
//
//	go run ./cluster/image --binary _output/bin/provider --out _output/xpkg/provider-runtime.tar
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

func main() {
	binary := flag.String("binary", "", "Static binary to put into the image (required).")
	out := flag.String("out", "", "Tarball to write (required).")
	tag := flag.String("tag", "provider-identity:dev", "Image reference recorded in the tarball.")
	dest := flag.String("path", "", "Path of the binary in the image. Default /usr/local/bin/<binary's name>.")
	user := flag.String("user", "65532:65532", "User the entrypoint runs as (non-root).")
	arch := flag.String("arch", "amd64", "Architecture of the binary.")
	var args multi
	flag.Var(&args, "arg", "Argument after the entrypoint (repeatable).")
	flag.Parse()
	if *binary == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *dest == "" {
		*dest = "/usr/local/bin/" + path.Base(*binary)
	}
	if err := build(*binary, *out, *tag, *dest, *user, *arch, args); err != nil {
		fmt.Fprintln(os.Stderr, "build-image:", err)
		os.Exit(1)
	}
}

type multi []string

func (m *multi) String() string     { return fmt.Sprint(*m) }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func build(binary, out, tag, dest, user, arch string, args []string) error {
	bin, err := os.ReadFile(binary) //nolint:gosec // the binary to package is the point
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar(dest, bin))), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return fmt.Errorf("cannot make the layer: %w", err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return fmt.Errorf("cannot add the layer: %w", err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", arch
	cfg.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cfg.Config.Entrypoint = []string{dest}
	cfg.Config.Cmd = args
	cfg.Config.User = user
	cfg.Config.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		return fmt.Errorf("cannot set the image config: %w", err)
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return fmt.Errorf("bad tag %q: %w", tag, err)
	}
	return tarball.WriteToFile(out, ref, img)
}

// layerTar is a tar stream with the directories of dest and the executable.
func layerTar(dest string, bin []byte) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0).UTC()
	var dirs []string
	for d := path.Dir(dest); d != "/" && d != "."; d = path.Dir(d) {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d[1:] + "/", Mode: 0o755, ModTime: epoch})
	}
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: dest[1:], Mode: 0o755, Size: int64(len(bin)), ModTime: epoch})
	_, _ = tw.Write(bin)
	_ = tw.Close()
	return buf.Bytes()
}
