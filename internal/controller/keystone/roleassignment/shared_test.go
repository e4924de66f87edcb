package roleassignment

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Many resources checking assignments of one role share one list of the role's assignments;
// an assignment missing from it is checked alone (HEAD), and one we just made is answered by
// Keystone's 204 to the PUT without a read.
func TestSharedAssignmentChecks(t *testing.T) {
	clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	const n = 40
	rows := make([]string, 0, n+1)
	answers := map[string]keystonetest.Answer{
		"HEAD projects/p-gone/groups/g/roles/r": keystonetest.NotFound,
		"HEAD projects/p-new/groups/g/roles/r":  keystonetest.NotFound,
		"PUT projects/p-new/groups/g/roles/r":   {Status: 204},
	}
	for i := range n {
		answers[fmt.Sprintf("HEAD projects/p%d/groups/g/roles/r", i)] = keystonetest.Answer{Status: 204}
		rows = append(rows, fmt.Sprintf(`{"role": {"id": "r"}, "group": {"id": "g"}, "scope": {"project": {"id": "p%d"}}}`, i))
	}
	// A system assignment of the role has no key and is left out.
	rows = append(rows, `{"role": {"id": "r"}, "user": {"id": "admin"}, "scope": {"system": {"all": true}}}`)
	answers["GET role_assignments?role.id=r"] = keystonetest.Answer{Body: `{"role_assignments": [` + strings.Join(rows, ",") + `]}`}
	api := &keystonetest.API{Answers: answers}
	e := sharedDriver(clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute, Now: func() time.Time { return clock }})(api).(*external)
	get := func(key string) string {
		_, err := e.Get(context.Background(), nil, key)
		switch {
		case e.IsNotFound(err):
			return "not found"
		case err != nil:
			return err.Error()
		}
		return "exists"
	}
	// 40 resources check their assignment one second apart: the demand grows until the 40th lists.
	for i := range n {
		clock = clock.Add(time.Second)
		if got := get(fmt.Sprintf("project/p%d/group/g/role/r", i)); got != "exists" {
			t.Fatalf("assignment %d: %s, want exists", i, got)
		}
	}
	before := len(api.Calls())
	got := make([]string, 0, 3)
	got = append(got, get("project/p1/group/g/role/r"), get("project/p-gone/group/g/role/r"))
	mg := &v1alpha1.RoleAssignment{Spec: v1alpha1.RoleAssignmentSpec{ForProvider: v1alpha1.RoleAssignmentParameters{
		RoleID: ptr("r"), GroupID: ptr("g"), ProjectID: ptr("p-new")}}}
	if _, _, err := e.Create(context.Background(), mg, provenance.Marker{}); err != nil {
		t.Fatal(err)
	}
	got = append(got, get("project/p-new/group/g/role/r"))
	if diff := cmp.Diff([]string{"exists", "not found", "exists"}, got); diff != "" {
		t.Errorf("checks after the list: -want +got:\n%s", diff)
	}
	wantCalls := []string{
		"HEAD projects/p-gone/groups/g/roles/r", // not in the list: checked alone
		"HEAD projects/p-new/groups/g/roles/r",  // Create's check before its PUT
		"PUT projects/p-new/groups/g/roles/r",
	}
	calls := api.Calls()
	if diff := cmp.Diff("GET role_assignments?role.id=r", calls[before-1]); diff != "" {
		t.Errorf("the 40th check: -want +got:\n%s", diff)
	}
	if diff := cmp.Diff(wantCalls, calls[before:]); diff != "" {
		t.Errorf("calls after the list: -want +got:\n%s", diff)
	}
}
