package authentikapiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// APIModule is the Go module whose api/openapi.yaml is the contract this server
// honours. It is the same module the provider links, so the schema the server
// enforces is always the one the provider's client was generated from.
const APIModule = "goauthentik.io/api/v3"

// APIVersion is the goauthentik.io/api/v3 version go.mod pins. It is only a
// fallback for locating the document outside the module (a test keeps it in
// step with go.mod).
const APIVersion = "v3.2026080.0"

// EnvOpenAPIPath overrides where the openapi document is read from.
const EnvOpenAPIPath = "AUTHENTIK_OPENAPI"

// spec is the parsed openapi document plus its router. Parsing the 97k-line
// document takes about two seconds, so it is done once per process and shared
// by every Server (tests start many).
type spec struct {
	path   string
	doc    *openapi3.T
	router routers.Router
}

var (
	specOnce sync.Once
	specVal  *spec
	specErr  error
)

// loadSpec parses the document at path (or the default one when path is
// empty) the first time it is called; later calls must ask for the same file.
func loadSpec(path string) (*spec, error) {
	specOnce.Do(func() {
		p := path
		if p == "" {
			p, specErr = DefaultOpenAPIPath()
			if specErr != nil {
				return
			}
		}
		specVal, specErr = parseSpec(p)
	})
	if specErr != nil {
		return nil, specErr
	}
	if path != "" && !samePath(path, specVal.path) {
		return nil, fmt.Errorf("openapi document %s already loaded in this process; cannot also load %s", specVal.path, path)
	}
	return specVal, nil
}

func samePath(a, b string) bool {
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	return errA == nil && errB == nil && aa == bb
}

func parseSpec(path string) (*spec, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("load openapi document %s: %w", path, err)
	}
	// doc.Validate is deliberately not called: authentik's generated examples
	// do not all match their schemas, which says nothing about the API itself.
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("build router for %s: %w", path, err)
	}
	registerXMLDecoder()
	return &spec{path: path, doc: doc, router: r}, nil
}

// DefaultOpenAPIPath finds api/openapi.yaml inside the goauthentik.io/api/v3
// module that go.mod pins. The document is not copied into this repository so
// it can never drift from the client the provider is compiled against.
func DefaultOpenAPIPath() (string, error) {
	if p := os.Getenv(EnvOpenAPIPath); p != "" {
		return p, nil
	}
	// Ask the go tool from the directory this file was compiled in first (it is
	// inside the provider's module even when the binary runs elsewhere), then
	// from the working directory.
	var dirs []string
	if _, file, _, ok := runtime.Caller(0); ok {
		if st, err := os.Stat(filepath.Dir(file)); err == nil && st.IsDir() {
			dirs = append(dirs, filepath.Dir(file))
		}
	}
	dirs = append(dirs, "")
	var errs []error
	for _, d := range dirs {
		p, err := moduleDocPath(d, "list", "-m", "-json", APIModule)
		if err == nil {
			return p, nil
		}
		errs = append(errs, err)
	}
	// Outside the module (binary copied elsewhere): fetch the pinned version
	// into the module cache, or find it there.
	p, err := moduleDocPath(os.TempDir(), "mod", "download", "-json", APIModule+"@"+APIVersion)
	if err == nil {
		return p, nil
	}
	errs = append(errs, err)
	return "", fmt.Errorf("cannot locate %s/api/openapi.yaml (set --openapi or %s): %w", APIModule, EnvOpenAPIPath, errors.Join(errs...))
}

// goToolTimeout bounds a go list or go mod download: the download may wait on
// an unreachable module proxy, and the caller would otherwise hang with it.
const goToolTimeout = 5 * time.Minute

func moduleDocPath(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), goToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...) //nolint:gosec // G204: go list/mod download of APIModule, arguments of our own
	cmd.Dir = dir
	// -mod=mod in the caller's GOFLAGS is refused outside a module.
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s in %q: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("decode go list output: %w", err)
	}
	if m.Dir == "" {
		return "", fmt.Errorf("module %s is not downloaded (run go mod download)", APIModule)
	}
	p := filepath.Join(m.Dir, "api", "openapi.yaml")
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

var (
	uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// formatValidators give the formats authentik's serializers enforce (UUIDField,
// URLField, EmailField) a meaning; kin-openapi ignores them by default, which
// would let a malformed UUID through to a 500 in the real server.
func formatValidators() map[string]openapi3.StringFormatValidator {
	return map[string]openapi3.StringFormatValidator{
		"uuid": openapi3.NewCallbackValidator(func(s string) error {
			if !uuidRe.MatchString(s) {
				return errors.New("not a UUID")
			}
			return nil
		}),
		// Blank is allowed: authentik's URL fields are blank=True and answer "".
		"uri": openapi3.NewCallbackValidator(func(s string) error {
			if s == "" {
				return nil
			}
			u, err := url.Parse(s)
			if err != nil || u.Scheme == "" || u.Host == "" {
				return errors.New("not an absolute URL")
			}
			return nil
		}),
		"email": openapi3.NewCallbackValidator(func(s string) error {
			if s == "" {
				return nil
			}
			if _, err := mail.ParseAddress(s); err != nil || strings.ContainsAny(s, "<> ") {
				return errors.New("not an email address")
			}
			return nil
		}),
	}
}

var xmlOnce sync.Once

// registerXMLDecoder lets the response validator read the SAML metadata
// download (application/xml): authentik documents that body with the
// SAMLMetadata object schema, so the XML text is checked as its `metadata`.
func registerXMLDecoder() {
	xmlOnce.Do(func() {
		openapi3filter.RegisterBodyDecoder("application/xml", func(r io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(r)
			if err != nil {
				return nil, err
			}
			if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("<")) {
				return nil, errors.New("body is not XML")
			}
			return map[string]any{"metadata": string(b)}, nil
		})
	})
}
