package authentikapiserver

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
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
