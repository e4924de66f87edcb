package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

const (
	header = "# Written by kubectl identity import from "

	errReadDir  = "cannot read the directory %s"
	errReadFile = "cannot read %s"
	errParse    = "%s was written by kubectl identity import but cannot be read back: %v. Restore it, or remove it and run --mode observe again"
	errWrite    = "cannot write %s"
)

// reviewed returns the objects (kind, then ID) whose manifests an earlier import wrote into
// dir, and whether there are any: in adopt mode those, and only those, are rewritten. Files
// not written by an import are ignored.
func reviewed(dir string) (map[string]map[string]bool, bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, errors.Wrapf(err, errReadDir, dir)
	}
	out := map[string]map[string]bool{}
	found := false
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path) //nolint:gosec // G304: the user's own directory
		if err != nil {
			return nil, false, errors.Wrapf(err, errReadFile, path)
		}
		if !bytes.HasPrefix(b, []byte(header)) {
			continue
		}
		var m Manifest
		if err := yaml.Unmarshal(b, &m); err != nil || m.Metadata.Annotations[annotationExternalName] == "" {
			return nil, false, errors.Errorf(errParse, path, err)
		}
		if out[m.Kind] == nil {
			out[m.Kind] = map[string]bool{}
		}
		out[m.Kind][m.Metadata.Annotations[annotationExternalName]] = true
		found = true
	}
	return out, found, nil
}

// write writes the plan's files into dir, made if needed. A file that already holds the same
// bytes is left alone, so a second run changes nothing, not even modification times.
func write(dir string, p Plan) (changed int, err error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return 0, errors.Wrapf(err, errWrite, dir)
	}
	for _, f := range p.Files {
		path := filepath.Join(dir, f.Name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, f.Data) { //nolint:gosec // G304: the user's own directory
			continue
		}
		if err := os.WriteFile(path, f.Data, 0o600); err != nil {
			return changed, errors.Wrapf(err, errWrite, path)
		}
		changed++
	}
	return changed, nil
}
