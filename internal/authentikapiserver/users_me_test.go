package authentikapiserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

func TestUsersMe(t *testing.T) {
	e := newEnv(t)
	me, resp, err := e.c.CoreAPI.CoreUsersMeRetrieve(e.ctx).Execute()
	if err != nil || status(resp) != http.StatusOK {
		t.Fatalf("users/me: %d %v", status(resp), err)
	}
	u := me.User
	got := []any{u.Username, u.IsSuperuser, u.IsActive, len(u.Groups), me.Original == nil}
	if diff := cmp.Diff([]any{"akadmin", true, true, 1, true}, got); diff != "" {
		t.Errorf("users/me (-want +got):\n%s", diff)
	}
	if len(u.Groups) == 1 && u.Groups[0].Name != "authentik Admins" {
		t.Errorf("users/me group: got %q, want authentik Admins", u.Groups[0].Name)
	}

	// A bad token is refused with authentik's 403, as every other endpoint.
	_, resp, err = clientFor(t, e.url, "wrong").CoreAPI.CoreUsersMeRetrieve(e.ctx).Execute()
	if err == nil || status(resp) != http.StatusForbidden {
		t.Fatalf("users/me with a bad token: want 403, got %d %v", status(resp), err)
	}
	if d := genericError(t, err).Detail; d != msgTokenInvalid {
		t.Errorf("users/me with a bad token: detail %q", d)
	}
}

// The password set_password stored is readable over HTTP, for out-of-process e2e tests.
func TestAdminHTTPPassword(t *testing.T) {
	e := newEnv(t)
	u, _, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*api.NewUserRequest("bob", "Bob")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/_test/password/%d", u.Pk)
	if code, body := e.do(t, "GET", path, "", ""); code != http.StatusNotFound {
		t.Errorf("password before set_password: %d %s", code, body)
	}
	if _, err := e.c.CoreAPI.CoreUsersSetPasswordCreate(e.ctx, u.Pk).UserPasswordSetRequest(*api.NewUserPasswordSetRequest("hunter2")).Execute(); err != nil {
		t.Fatal(err)
	}
	code, body := e.do(t, "GET", path, "", "")
	if code != http.StatusOK || string(body) != `{"password":"hunter2"}` {
		t.Errorf("password: %d %s", code, body)
	}
	if code, _ := e.do(t, "GET", "/_test/password/bob", "", ""); code != http.StatusBadRequest {
		t.Errorf("password of a non-numeric pk: %d", code)
	}
}
