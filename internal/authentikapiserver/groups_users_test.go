package authentikapiserver

import (
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

func TestGroupLifecycleAndMembership(t *testing.T) {
	e := newEnv(t)
	parentReq := api.NewGroupRequest("platform")
	parentReq.SetAttributes(map[string]interface{}{"team": "platform"})
	parent, resp, err := e.c.CoreAPI.CoreGroupsCreate(e.ctx).GroupRequest(*parentReq).Execute()
	if err != nil || status(resp) != http.StatusCreated {
		t.Fatalf("create: %d %v", status(resp), err)
	}
	user, _, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*api.NewUserRequest("alice", "Alice")).Execute()
	if err != nil {
		t.Fatal(err)
	}

	childReq := api.NewGroupRequest("sre")
	childReq.SetParents([]string{parent.Pk})
	childReq.SetUsers([]int32{user.Pk})
	childReq.SetAttributes(map[string]interface{}{"managed-by": "crossplane", "nested": map[string]interface{}{"level": 2}})
	child, _, err := e.c.CoreAPI.CoreGroupsCreate(e.ctx).GroupRequest(*childReq).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int32{user.Pk}, child.Users); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if child.NumPk == parent.NumPk {
		t.Errorf("num_pk not distinct: %d", child.NumPk)
	}

	// Membership written through the group shows on the user.
	u, _, err := e.c.CoreAPI.CoreUsersRetrieve(e.ctx, user.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{child.Pk}, u.Groups); diff != "" {
		t.Errorf("user groups (-want +got):\n%s", diff)
	}

	p, _, err := e.c.CoreAPI.CoreGroupsRetrieve(e.ctx, parent.Pk).IncludeChildren(true).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{child.Pk}, p.Children); diff != "" || len(p.ChildrenObj) != 1 {
		t.Errorf("children (-want +got):\n%s (children_obj %d)", diff, len(p.ChildrenObj))
	}

	filters := []struct {
		name  string
		value string
		want  []string
	}{
		{"top-level key", `{"managed-by": "crossplane"}`, []string{"sre"}},
		{"nested lookup path", `{"nested__level": 2}`, []string{"sre"}},
		{"no match", `{"managed-by": "terraform"}`, nil},
		{"other group", `{"team": "platform"}`, []string{"platform"}},
	}
	for _, tc := range filters {
		t.Run("attributes filter/"+tc.name, func(t *testing.T) {
			l, _, err := e.c.CoreAPI.CoreGroupsList(e.ctx).Attributes(tc.value).Execute()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range l.Results {
				got = append(got, g.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	_, resp, err = e.c.CoreAPI.CoreGroupsList(e.ctx).Attributes("{not json").Execute()
	if status(resp) != http.StatusBadRequest {
		t.Errorf("bad attributes filter: %d %v", status(resp), err)
	}

	byName, _, err := e.c.CoreAPI.CoreGroupsList(e.ctx).Name("sre").IncludeUsers(false).Execute()
	if err != nil || len(byName.Results) != 1 || byName.Results[0].UsersObj != nil {
		t.Errorf("?name=sre&include_users=false: %v %+v", err, byName)
	}

	self := api.NewPatchedGroupRequest()
	self.SetParents([]string{child.Pk})
	_, resp, err = e.c.CoreAPI.CoreGroupsPartialUpdate(e.ctx, child.Pk).PatchedGroupRequest(*self).Execute()
	if status(resp) != http.StatusBadRequest {
		t.Fatalf("self parent: %d", status(resp))
	}
	if diff := cmp.Diff(map[string]any{"parents": []any{"Cannot set group as parent of itself."}}, validationError(t, err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	if _, err := e.c.CoreAPI.CoreGroupsDestroy(e.ctx, child.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	u, _, _ = e.c.CoreAPI.CoreUsersRetrieve(e.ctx, user.Pk).Execute()
	if len(u.Groups) != 0 {
		t.Errorf("deleted group still on user: %v", u.Groups)
	}
}

func TestUniqueNames(t *testing.T) {
	e := newEnv(t)
	if _, _, err := e.c.CoreAPI.CoreGroupsCreate(e.ctx).GroupRequest(*api.NewGroupRequest("dup")).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*api.NewUserRequest("bob", "Bob")).Execute(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		do   func() (*http.Response, error)
		want map[string]any
	}{
		{"group name", func() (*http.Response, error) {
			_, r, err := e.c.CoreAPI.CoreGroupsCreate(e.ctx).GroupRequest(*api.NewGroupRequest("dup")).Execute()
			return r, err
		}, map[string]any{"name": []any{"This field must be unique."}}},
		{"username", func() (*http.Response, error) {
			_, r, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*api.NewUserRequest("bob", "Other Bob")).Execute()
			return r, err
		}, map[string]any{"username": []any{"This field must be unique."}}},
		{"seeded akadmin", func() (*http.Response, error) {
			_, r, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*api.NewUserRequest("akadmin", "x")).Execute()
			return r, err
		}, map[string]any{"username": []any{"This field must be unique."}}},
		{"user path", func() (*http.Response, error) {
			r := api.NewUserRequest("carol", "Carol")
			r.SetPath("/users")
			_, resp, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*r).Execute()
			return resp, err
		}, map[string]any{"path": []any{"No leading or trailing slashes allowed."}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := tc.do()
			if status(resp) != http.StatusBadRequest {
				t.Fatalf("status %d err %v", status(resp), err)
			}
			if diff := cmp.Diff(tc.want, validationError(t, err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUserLifecycleAndPassword(t *testing.T) {
	e := newEnv(t)
	admins, _, err := e.c.CoreAPI.CoreGroupsList(e.ctx).Name("authentik Admins").Execute()
	if err != nil || len(admins.Results) != 1 {
		t.Fatalf("seeded admins group: %v", err)
	}
	req := api.NewUserRequest("dave", "Dave")
	req.SetEmail("dave@example.com")
	req.SetAttributes(map[string]interface{}{"owner": "crossplane"})
	req.SetGroups([]string{admins.Results[0].Pk})
	u, resp, err := e.c.CoreAPI.CoreUsersCreate(e.ctx).UserRequest(*req).Execute()
	if err != nil || status(resp) != http.StatusCreated {
		t.Fatalf("create: %d %v", status(resp), err)
	}
	if !u.IsSuperuser || u.GetPath() != "users" || u.GetType() != api.USERTYPEENUM_INTERNAL || !u.GetIsActive() {
		t.Errorf("computed/defaults: superuser %v path %q type %q active %v", u.IsSuperuser, u.GetPath(), u.GetType(), u.GetIsActive())
	}

	if _, err := e.c.CoreAPI.CoreUsersSetPasswordCreate(e.ctx, u.Pk).UserPasswordSetRequest(*api.NewUserPasswordSetRequest("hunter2")).Execute(); err != nil {
		t.Fatal(err)
	}
	if pw, ok := e.s.Password(int64(u.Pk)); !ok || pw != "hunter2" {
		t.Errorf("password = %q %v", pw, ok)
	}
	resp, err = e.c.CoreAPI.CoreUsersSetPasswordCreate(e.ctx, 9999).UserPasswordSetRequest(*api.NewUserPasswordSetRequest("x")).Execute()
	if status(resp) != http.StatusNotFound {
		t.Errorf("set_password on missing user: %d %v", status(resp), err)
	}

	l, _, err := e.c.CoreAPI.CoreUsersList(e.ctx).Attributes(`{"owner": "crossplane"}`).Execute()
	if err != nil || len(l.Results) != 1 || l.Results[0].Username != "dave" {
		t.Errorf("attributes filter: %v %+v", err, l)
	}

	patch := api.NewPatchedUserRequest()
	patch.SetIsActive(false)
	u, _, err = e.c.CoreAPI.CoreUsersPartialUpdate(e.ctx, u.Pk).PatchedUserRequest(*patch).Execute()
	if err != nil || u.GetIsActive() || u.GetEmail() != "dave@example.com" {
		t.Errorf("patch: %v active %v email %q", err, u.GetIsActive(), u.GetEmail())
	}
	if _, err := e.c.CoreAPI.CoreUsersDestroy(e.ctx, u.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	// The embedded outpost's service account lives under goauthentik.io/outposts.
	all, _, err := e.c.CoreAPI.CoreUsersList(e.ctx).Path("users").Execute()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(all.Results))
	for _, x := range all.Results {
		names = append(names, x.Username)
	}
	sort.Strings(names)
	if diff := cmp.Diff([]string{"akadmin"}, names); diff != "" {
		t.Errorf("users after delete (-want +got):\n%s", diff)
	}
}
