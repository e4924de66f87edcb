package domainconfig

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

const configPath = "/v3/domains/d/config"

// configKeystone serves one domain's /config as Keystone does: GET 200 or 404, PUT 201 when the
// domain had no configuration and 200 when it replaced one. A configuration made by someone
// else appears when the request numbered appearAt (counting from 1) arrives.
type configKeystone struct {
	mu       sync.Mutex
	appearAt int
	getFails bool
	stored   map[string]map[string]any
	requests []string
}

func (f *configKeystone) client(t *testing.T) *gophercloud.ServiceClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests = append(f.requests, r.Method+" "+r.URL.Path)
		if len(f.requests) == f.appearAt {
			f.stored = map[string]map[string]any{"identity": {"driver": "ldap"}, "ldap": {"url": "ldap://by-hand"}}
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path != configPath:
			w.WriteHeader(http.StatusNotFound)
		case r.Method == http.MethodGet && f.getFails:
			w.WriteHeader(http.StatusServiceUnavailable)
		case r.Method == http.MethodGet && f.stored == nil:
			w.WriteHeader(http.StatusNotFound)
		case r.Method == http.MethodGet:
			_ = json.NewEncoder(w).Encode(map[string]any{"config": f.stored})
		case r.Method == http.MethodPut:
			var body struct {
				Config map[string]map[string]any `json:"config"`
			}
			_ = json.NewDecoder(r.Body).Decode(&body)
			code := http.StatusOK
			if f.stored == nil {
				code = http.StatusCreated
			}
			f.stored = body.Config
			w.WriteHeader(code)
			_ = json.NewEncoder(w).Encode(map[string]any{"config": f.stored})
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(srv.Close)
	return &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}
}

// Keystone's PUT replaces a domain's configuration instead of refusing it, so one made by
// someone else between the engine's read (Observe) and its write (Create) must be looked for
// before the PUT, and one made in between those two told by the PUT's 200: either way the create
// is refused, nothing is claimed, and the next reconcile reports AdoptionRequired.
func TestCreateRace(t *testing.T) {
	const get, put = "GET " + configPath, "PUT " + configPath
	byHand := map[string]map[string]any{"identity": {"driver": "ldap"}, "ldap": {"url": "ldap://by-hand"}}
	type want struct {
		Conflict     bool
		Overwritten  bool
		ErrContains  string
		ExternalName string
		Requests     []string
		ByHandKept   bool
	}
	cases := map[string]struct {
		f    *configKeystone
		want want
	}{
		"NoneMeanwhile": {
			f:    &configKeystone{},
			want: want{ExternalName: "d", Requests: []string{get, get, put}},
		},
		"MadeBeforeTheCheck": {
			// It appears as Create's GET arrives: refused untouched, no PUT.
			f:    &configKeystone{appearAt: 2},
			want: want{Conflict: true, Requests: []string{get, get}, ByHandKept: true},
		},
		"MadeBetweenCheckAndPut": {
			// It appears as the PUT arrives: Keystone replaces it and says so with a 200.
			f:    &configKeystone{appearAt: 3},
			want: want{Conflict: true, Overwritten: true, Requests: []string{get, get, put}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, mg := newRaceExternal(t, tc.f)
			obs, err := e.Observe(context.Background(), mg)
			if err != nil || obs.ResourceExists {
				t.Fatalf("Observe() before the configuration exists: exists %v, err %v", obs.ResourceExists, err)
			}
			created := time.Now()
			meta.SetExternalCreatePending(mg, created)
			_, err = e.Create(context.Background(), mg)
			var ce *adoption.ConflictError
			got := want{Conflict: errors.As(err, &ce), ExternalName: meta.GetExternalName(mg), Requests: tc.f.requests, ByHandKept: cmp.Equal(tc.f.stored, byHand)}
			if got.Conflict {
				got.Overwritten = ce.Overwritten
			} else if err != nil {
				t.Fatalf("Create(): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Create(): -want +got:\n%s", diff)
			}
			if !got.Conflict {
				return
			}
			if s := mg.GetAnnotations()[adoption.AnnotationMarker]; s != "" {
				t.Errorf("marker annotation %q after a refused create", s)
			}
			// The reconciler records the failed create; the next reconcile finds a configuration
			// that is not this resource's.
			meta.SetExternalCreateFailed(mg, created.Add(time.Second))
			next, _ := newRaceExternal(t, tc.f)
			if _, err := next.Observe(context.Background(), mg); !errors.As(err, &ce) {
				t.Fatalf("next Observe(): %v, want a ConflictError", err)
			}
			if r := mg.GetCondition(xpv2.TypeReady).Reason; r != adoption.ReasonAdoptionRequired {
				t.Errorf("Ready reason %q, want AdoptionRequired", r)
			}
		})
	}
}

// A failed check is an error, and nothing is written.
func TestCreateCheckFails(t *testing.T) {
	f := &configKeystone{getFails: true}
	e, mg := newRaceExternal(t, f)
	_, err := e.Create(context.Background(), mg)
	if err == nil || !strings.Contains(err.Error(), "cannot check whether Keystone domain d has a configuration") {
		t.Fatalf("Create(): %v, want the check's error", err)
	}
	if diff := cmp.Diff([]string{"GET " + configPath}, f.requests); diff != "" {
		t.Errorf("requests: -want +got:\n%s", diff)
	}
}

func newRaceExternal(t *testing.T, f *configKeystone) (*adoption.External[mr, config], *v1alpha1.DomainConfig) {
	t.Helper()
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "bind", UID: "u1", ResourceVersion: "7"},
		Data: map[string][]byte{"username": []byte("cn=admin"), "password": []byte("pw")}}
	d := &external{sc: f.client(t), kube: fake.NewClientBuilder().WithObjects(sec).Build()}
	e := adoption.NewExternal[mr, config](d, adoption.Config{
		GroupKind: "DomainConfig.keystone.identity.crossplane.io", Installation: "i",
	})
	mg := &v1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Name: "dc"},
		Spec: v1alpha1.DomainConfigSpec{ForProvider: v1alpha1.DomainConfigParameters{DomainID: ptr("d"), LDAP: spec()}}}
	return e, mg
}
