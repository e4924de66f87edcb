package user

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var self = provenance.Marker{Installation: "inst", Resource: "User.authentik.identity.crossplane.io/u", Origin: provenance.OriginCreated}

const (
	groupA = "0b5d1a4e-5b0e-4a39-9d3c-7e0e4f1b2c01"
	groupB = "0b5d1a4e-5b0e-4a39-9d3c-7e0e4f1b2c02"
)

func user(mutate ...func(*api.User)) api.User {
	u := api.User{
		Pk: 42, Username: "alice", Name: "Alice", IsActive: new(true), Email: new("alice@example.com"),
		Path: new("users"), Type: new(api.USERTYPEENUM_INTERNAL), Groups: []string{groupA}, Uuid: "u-1",
		Attributes: map[string]any{authentik.MarkerAttribute: self.Encode(), "locale": "en", "settings": map[string]any{"theme": "dark"}},
	}
	for _, m := range mutate {
		m(&u)
	}
	return u
}

func attrs(kv ...string) v1alpha1.Attributes {
	a := v1alpha1.Attributes{}
	for i := 0; i+1 < len(kv); i += 2 {
		a[kv[i]] = extv1.JSON{Raw: []byte(kv[i+1])}
	}
	return a
}

var pwRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "alice-pw"}, Key: "password"}

func TestObserve(t *testing.T) {
	cases := map[string]struct {
		spec     v1alpha1.UserParameters
		user     api.User
		password *secretState
		last     string
		upToDate bool
		lateInit bool
		diffHas  string
	}{
		"MinimalSpecLateInitializesIsActive": {
			spec:     v1alpha1.UserParameters{Username: "alice"},
			user:     user(),
			upToDate: true,
			lateInit: true,
		},
		"EveryFieldMatches": {
			spec: v1alpha1.UserParameters{Username: "alice", Name: new("Alice"), Email: new("alice@example.com"), IsActive: new(true),
				Type: new("internal"), Path: new("users"), Groups: []string{groupA}, Attributes: attrs("locale", `"en"`)},
			user:     user(),
			upToDate: true,
		},
		"EmailDiffers": {
			spec:    v1alpha1.UserParameters{Username: "alice", IsActive: new(true), Email: new("alice@example.org")},
			user:    user(),
			diffHas: "alice@example.org",
		},
		"TypeDiffers": {
			spec:    v1alpha1.UserParameters{Username: "alice", IsActive: new(true), Type: new("external")},
			user:    user(),
			diffHas: "external",
		},
		"UnsetGroupsAreNotManaged": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true)},
			user:     user(func(u *api.User) { u.Groups = []string{groupA, groupB} }),
			upToDate: true,
		},
		"GroupsCompareAsASet": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true), Groups: []string{groupB, groupA}},
			user:     user(func(u *api.User) { u.Groups = []string{groupA, groupB} }),
			upToDate: true,
		},
		"EmptyGroupsAreManaged": {
			spec:    v1alpha1.UserParameters{Username: "alice", IsActive: new(true), Groups: []string{}},
			user:    user(),
			diffHas: groupA,
		},
		"NestedAttributeDiffers": {
			spec:    v1alpha1.UserParameters{Username: "alice", IsActive: new(true), Attributes: attrs("settings", `{"theme": "light"}`)},
			user:    user(),
			diffHas: "light",
		},
		"PasswordSetFromThisVersion": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true), PasswordSecretRef: pwRef},
			user:     user(),
			password: &secretState{version: "uid/7/password"},
			last:     "uid/7/password",
			upToDate: true,
		},
		"PasswordNeverSet": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true), PasswordSecretRef: pwRef},
			user:     user(),
			password: &secretState{version: "uid/7/password"},
			diffHas:  "password: not yet set from Secret ns/alice-pw",
		},
		"PasswordSecretChanged": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true), PasswordSecretRef: pwRef},
			user:     user(),
			password: &secretState{version: "uid/8/password"},
			last:     "uid/7/password",
			diffHas:  "password: Secret ns/alice-pw changed",
		},
		"PasswordSecretUnreadable": {
			spec:     v1alpha1.UserParameters{Username: "alice", IsActive: new(true), PasswordSecretRef: pwRef},
			user:     user(),
			password: &secretState{err: errors.New("cannot read the password Secret ns/alice-pw")},
			last:     "uid/7/password",
			diffHas:  "cannot read the password Secret ns/alice-pw",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.User{Spec: v1alpha1.UserSpec{ForProvider: tc.spec}}
			u := tc.user
			if tc.last != "" {
				u.Attributes[authentik.PasswordVersionAttribute] = tc.last
			}
			got := (&external{password: tc.password}).Observe(mg, u, identityv1alpha1.Adopted)
			if got.UpToDate != tc.upToDate || got.LateInitialized != tc.lateInit {
				t.Errorf("Observe(...): upToDate %t lateInit %t, want %t %t; diff:\n%s", got.UpToDate, got.LateInitialized, tc.upToDate, tc.lateInit, got.Diff)
			}
			if got.UpToDate != (got.Diff == "") {
				t.Errorf("Observe(...): upToDate %t with diff %q", got.UpToDate, got.Diff)
			}
			if !strings.Contains(got.Diff, tc.diffHas) {
				t.Errorf("Observe(...): diff does not mention %q:\n%s", tc.diffHas, got.Diff)
			}
			want := v1alpha1.UserObservation{ID: "42", UUID: "u-1", Username: "alice", Name: "Alice", Email: "alice@example.com",
				IsActive: true, Type: "internal", Path: "users", Groups: tc.user.Groups, PasswordSecretVersion: tc.last, Provenance: identityv1alpha1.Adopted}
			want.Groups = authentik.SortedSet(want.Groups)
			if diff := cmp.Diff(want, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestPatch(t *testing.T) {
	cases := map[string]struct {
		spec    v1alpha1.UserParameters
		user    api.User
		version string
		want    api.PatchedUserRequest
	}{
		"NothingDiffers": {
			spec: v1alpha1.UserParameters{Username: "alice", Name: new("Alice"), IsActive: new(true), Groups: []string{groupA}, Attributes: attrs("locale", `"en"`)},
			user: user(),
		},
		"OnlyTheDifferingFieldsAreSent": {
			spec: v1alpha1.UserParameters{Username: "alice", Name: new("Alice A."), IsActive: new(false), Path: new("users")},
			user: user(),
			want: api.PatchedUserRequest{Name: new("Alice A."), IsActive: new(false)},
		},
		"TypeIsSentAsTheEnum": {
			spec: v1alpha1.UserParameters{Username: "alice", Type: new("service_account")},
			user: user(),
			want: api.PatchedUserRequest{Type: new(api.USERTYPEENUM_SERVICE_ACCOUNT)},
		},
		"EmptyGroupsLeaveEveryGroup": {
			spec: v1alpha1.UserParameters{Username: "alice", Groups: []string{}},
			user: user(),
			want: api.PatchedUserRequest{Groups: []string{}},
		},
		"AttributesKeepOthersKeys": {
			spec: v1alpha1.UserParameters{Username: "alice", Attributes: attrs("locale", `"de"`)},
			user: user(),
			want: api.PatchedUserRequest{Attributes: map[string]any{
				authentik.MarkerAttribute: self.Encode(), "locale": "de", "settings": map[string]any{"theme": "dark"},
			}},
		},
		"PasswordVersionIsRecordedWithTheOtherAttributes": {
			spec:    v1alpha1.UserParameters{Username: "alice", Email: new("alice@example.org"), PasswordSecretRef: pwRef},
			user:    user(func(u *api.User) { u.Attributes[authentik.PasswordVersionAttribute] = "uid/7/password" }),
			version: "uid/8/password",
			want: api.PatchedUserRequest{Email: new("alice@example.org"), Attributes: map[string]any{
				authentik.MarkerAttribute: self.Encode(), authentik.PasswordVersionAttribute: "uid/8/password", "locale": "en", "settings": map[string]any{"theme": "dark"},
			}},
		},
		"UnchangedPasswordVersionIsNotWritten": {
			spec:    v1alpha1.UserParameters{Username: "alice", PasswordSecretRef: pwRef},
			user:    user(func(u *api.User) { u.Attributes[authentik.PasswordVersionAttribute] = "uid/7/password" }),
			version: "uid/7/password",
		},
		"AdoptionStampsTheMarker": {
			spec: v1alpha1.UserParameters{Username: "alice"},
			user: user(func(u *api.User) { delete(u.Attributes, authentik.MarkerAttribute) }),
			want: api.PatchedUserRequest{Attributes: map[string]any{
				authentik.MarkerAttribute: self.Encode(), "locale": "en", "settings": map[string]any{"theme": "dark"},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := patch(&tc.spec, tc.user, self, tc.version)
			if err != nil {
				t.Fatalf("patch(...): %v", err)
			}
			// Compared as the body sent on the wire.
			want, _ := tc.want.ToMap()
			body, _ := got.ToMap()
			if diff := cmp.Diff(want, body); diff != "" {
				t.Errorf("patch(...): -want, +got:\n%s", diff)
			}
			if isEmpty(got) != (len(want) == 0) {
				t.Errorf("isEmpty(patch(...)) = %t for %v", isEmpty(got), body)
			}
		})
	}
}

func TestReadPassword(t *testing.T) {
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "alice-pw", UID: "uid-1", ResourceVersion: "7"},
		Data: map[string][]byte{"password": []byte("s3cret"), "empty": {}}}
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(sec).Build()
	inNamespace := func(ns string) mr {
		mg := &nsv1alpha1.User{}
		mg.SetNamespace(ns)
		mg.SetName("alice")
		return mg
	}
	cases := map[string]struct {
		mg      mr // default: a cluster-scoped User
		refNS   *string
		key     string
		name    string
		wantPW  string
		wantErr string
	}{
		"Found":                      {key: "password", name: "alice-pw", wantPW: "s3cret"},
		"NamespacedInItsNamespace":   {mg: inNamespace("ns"), refNS: new(""), key: "password", name: "alice-pw", wantPW: "s3cret"},
		"NamespacedAnotherNamespace": {mg: inNamespace("team-b"), key: "password", name: "alice-pw", wantErr: "cannot read the password Secret ns/alice-pw: User team-b/alice reads Secrets of its own namespace only"},
		"ClusterWithoutNamespace":    {refNS: new(""), key: "password", name: "alice-pw", wantErr: `cannot read the password Secret /alice-pw: User alice names Secret "alice-pw" without a namespace`},
		"MissingKey":                 {key: "pw", name: "alice-pw", wantErr: `the password Secret ns/alice-pw has no key "pw", or it is empty`},
		"EmptyKey":                   {key: "empty", name: "alice-pw", wantErr: `the password Secret ns/alice-pw has no key "empty", or it is empty`},
		"NoSecret":                   {key: "password", name: "bob-pw", wantErr: "cannot read the password Secret ns/bob-pw"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ref := identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: tc.name}, Key: tc.key}
			if tc.refNS != nil {
				ref.Namespace = *tc.refNS
			}
			mg := tc.mg
			if mg == nil {
				c := &v1alpha1.User{}
				c.SetName("alice")
				mg = c
			}
			pw, version, err := readPassword(context.Background(), kube, mg, ref)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("readPassword(...): want error %q, got %v", tc.wantErr, err)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("readPassword(...): the error reveals the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("readPassword(...): %v", err)
			}
			if string(pw) != tc.wantPW {
				t.Errorf("readPassword(...): wrong password")
			}
			// The version names the Secret's object version, never anything of the password.
			if version != "uid-1/"+sec.ResourceVersion+"/password" || strings.Contains(version, "s3cret") {
				t.Errorf("readPassword(...): version %q", version)
			}
		})
	}
}
