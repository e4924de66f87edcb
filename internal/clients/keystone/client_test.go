package keystone

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gophercloud/gophercloud/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// fakeKeystone issues tokens while the password works and accepts only the last token issued.
type fakeKeystone struct {
	mu         sync.Mutex
	url        string
	passwordOK bool
	token      string
	tokenPosts int
}

func (f *fakeKeystone) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v3/auth/tokens":
		f.tokenPosts++
		if !f.passwordOK {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"code":401,"message":"The request you have made requires authentication.","title":"Unauthorized"}}`))
			return
		}
		f.token = "token-" + strings.Repeat("x", f.tokenPosts)
		w.Header().Set("X-Subject-Token", f.token)
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"token":{"expires_at":"2099-01-01T00:00:00.000000Z","catalog":[{"type":"identity","name":"keystone","endpoints":[` +
			`{"interface":"public","region":"RegionOne","region_id":"RegionOne","url":"` + f.url + `/v3"}]}]}}`))
	case r.Header.Get("X-Auth-Token") != f.token || f.token == "":
		w.WriteHeader(http.StatusUnauthorized)
	default:
		_, _ = w.Write([]byte(`{"domains":[]}`))
	}
}

// A cached client whose token is rejected and whose password stopped working re-authenticates
// once per backoff period, not at every request.
func TestReauthenticationBacksOff(t *testing.T) {
	fk := &fakeKeystone{passwordOK: true}
	srv := httptest.NewServer(fk)
	defer srv.Close()
	fk.url = srv.URL
	cfg := &identityv1alpha1.KeystoneConfig{AuthURL: srv.URL + "/v3", Region: "RegionOne"}
	opts := gophercloud.AuthOptions{IdentityEndpoint: cfg.AuthURL, Username: "svc", Password: "pw", DomainName: "Default", AllowReauth: true}
	sc, err := connect(context.Background(), cfg, opts, http.Client{})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if _, err := sc.Get(context.Background(), sc.ServiceURL("domains"), nil, nil); err != nil {
		t.Fatalf("a request with a fresh token: %v", err)
	}

	// The password is changed in Keystone and the token revoked.
	fk.mu.Lock()
	fk.passwordOK, fk.token, fk.tokenPosts = false, "revoked", 0
	fk.mu.Unlock()
	for i := range 5 {
		_, err := sc.Get(context.Background(), sc.ServiceURL("domains"), nil, nil)
		if err == nil || !strings.Contains(err.Error(), "tries again after") {
			t.Errorf("request %d: got %v, want the remembered authentication failure", i, err)
		}
	}
	if fk.tokenPosts != 1 {
		t.Errorf("5 rejected requests made %d token requests, want 1 (then the backoff)", fk.tokenPosts)
	}
}
