package user

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// Only the options the spec sets are compared: options Keystone holds that the spec leaves out
// (set by hand, or defaults) never make the user out of date.
func TestObserveOptions(t *testing.T) {
	rules := [][]string{{"password", "totp"}}
	held := keystone.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: &rules}
	cases := map[string]struct {
		spec       *v1alpha1.UserOptions
		held       keystone.UserOptions
		expires    *string
		wantUp     bool
		wantStatus *v1alpha1.UserOptions
		wantExpiry string
	}{
		"NoOptionsInSpecIgnoresWhatKeystoneHolds": {
			held: held, wantUp: true,
			wantStatus: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"SetOptionMatches": {
			spec: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true)}, held: held, wantUp: true,
			wantStatus: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"SetOptionDiffers": {
			spec: &v1alpha1.UserOptions{LockPassword: ptr(true)}, held: held,
			wantStatus: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"FalseDiffersFromAbsent": {
			// Absent is Keystone's default, but only a written false keeps a later hand-made
			// true from going unnoticed: the first sync writes it, after which it matches.
			spec: &v1alpha1.UserOptions{IgnoreLockoutFailureAttempts: ptr(false)},
		},
		"RulesDiffer": {
			spec: &v1alpha1.UserOptions{MultiFactorAuthRules: []v1alpha1.MFARule{{"password"}, {"totp"}}}, held: held,
			wantStatus: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"EmptyRulesAreNotManaged": {
			spec: &v1alpha1.UserOptions{MultiFactorAuthRules: []v1alpha1.MFARule{}}, held: held, wantUp: true,
			wantStatus: &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"RulesAbsentFromKeystoneDiffer": {
			spec: &v1alpha1.UserOptions{MultiFactorAuthRules: []v1alpha1.MFARule{{"password"}}},
		},
		"AllOptionsMatch": {
			spec: &v1alpha1.UserOptions{IgnoreChangePasswordUponFirstUse: ptr(true), IgnorePasswordExpiry: ptr(false), IgnoreLockoutFailureAttempts: ptr(true),
				LockPassword: ptr(true), IgnoreUserInactivity: ptr(true), MultiFactorAuthEnabled: ptr(true), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
			held: keystone.UserOptions{IgnoreChangePasswordUponFirstUse: ptr(true), IgnorePasswordExpiry: ptr(false), IgnoreLockoutFailureAttempts: ptr(true),
				LockPassword: ptr(true), IgnoreUserInactivity: ptr(true), MultiFactorAuthEnabled: ptr(true), MultiFactorAuthRules: &rules},
			wantUp: true,
			wantStatus: &v1alpha1.UserOptions{IgnoreChangePasswordUponFirstUse: ptr(true), IgnorePasswordExpiry: ptr(false), IgnoreLockoutFailureAttempts: ptr(true),
				LockPassword: ptr(true), IgnoreUserInactivity: ptr(true), MultiFactorAuthEnabled: ptr(true), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}},
		},
		"PasswordExpiryIsReported": {
			expires: ptr("2026-12-31T10:00:00.000000"), wantUp: true, wantExpiry: "2026-12-31T10:00:00.000000",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newUser(func(p *v1alpha1.UserParameters) { p.Enabled, p.Options = ptr(true), tc.spec })
			u := user{User: keystone.User{ID: "u1", Name: "alice", DomainID: "d1", Enabled: true, Options: tc.held, PasswordExpiresAt: tc.expires}}
			obs := (&external{}).Observe(mg, u, identityv1alpha1.Owned)
			if obs.UpToDate != tc.wantUp {
				t.Errorf("UpToDate = %v, want %v (diff %s)", obs.UpToDate, tc.wantUp, obs.Diff)
			}
			if diff := cmp.Diff(tc.wantStatus, mg.Status.AtProvider.Options); diff != "" {
				t.Errorf("status.atProvider.options: -want +got:\n%s", diff)
			}
			if mg.Status.AtProvider.PasswordExpiresAt != tc.wantExpiry {
				t.Errorf("passwordExpiresAt = %q, want %q", mg.Status.AtProvider.PasswordExpiresAt, tc.wantExpiry)
			}
		})
	}
}

// Create and Update send the options the spec sets and no other; a failure is reported.
func TestOptionsRequests(t *testing.T) {
	userBody := `{"user":{"id":"u1","name":"alice","domain_id":"d1","options":{"lock_password":true}}}`
	spec := &v1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true), LockPassword: ptr(false), MultiFactorAuthRules: []v1alpha1.MFARule{{"password", "totp"}}}
	sent := map[string]any{"ignore_password_expiry": true, "lock_password": false, "multi_factor_auth_rules": []any{[]any{"password", "totp"}}}
	observed := user{User: keystone.User{ID: "u1", Name: "alice", DomainID: "d1", Options: keystone.UserOptions{LockPassword: ptr(true)}}}
	badRequest := answer{code: 400, body: `{"error":{"code":400,"message":"Invalid input for field 'options/multi_factor_auth_rules'.","title":"Bad Request"}}`}
	cases := map[string]struct {
		answers map[string]answer
		update  bool
		wantErr string
		want    []request
	}{
		"CreateSendsTheSetOptions": {
			answers: map[string]answer{"POST /v3/users": {code: 201, body: userBody}},
			want: []request{{Line: "POST /v3/users", Body: map[string]any{"user": map[string]any{
				"name": "alice", "domain_id": "d1", "options": sent, "crossplane_provenance": marker.Encode()}}}},
		},
		"CreateRefused": {
			answers: map[string]answer{"POST /v3/users": badRequest},
			wantErr: `cannot create Keystone user "alice" in domain d1: ... Keystone answered Bad Request (400): Invalid input for field 'options/multi_factor_auth_rules'`,
			want: []request{{Line: "POST /v3/users", Body: map[string]any{"user": map[string]any{
				"name": "alice", "domain_id": "d1", "options": sent, "crossplane_provenance": marker.Encode()}}}},
		},
		"UpdateSendsTheSetOptions": {
			answers: map[string]answer{"PATCH /v3/users/u1": {code: 200, body: userBody}},
			update:  true,
			want: []request{{Line: "PATCH /v3/users/u1", Body: map[string]any{"user": map[string]any{
				"name": "alice", "domain_id": "d1", "options": sent, "crossplane_provenance": marker.Encode()}}}},
		},
		"UpdateRefused": {
			answers: map[string]answer{"PATCH /v3/users/u1": badRequest},
			update:  true,
			wantErr: `cannot update Keystone user "alice" (ID u1): ... Keystone answered Bad Request (400): Invalid input for field 'options/multi_factor_auth_rules'`,
			want: []request{{Line: "PATCH /v3/users/u1", Body: map[string]any{"user": map[string]any{
				"name": "alice", "domain_id": "d1", "options": sent, "crossplane_provenance": marker.Encode()}}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeKeystone{answers: tc.answers}
			e := sharedDriver(clients.SharedReadOptions{}, kubeWith(t))(f.client(t)).(*external)
			mg := newUser(func(p *v1alpha1.UserParameters) { p.Options = spec })
			var err error
			if tc.update {
				_, err = e.Update(context.Background(), mg, observed, marker)
			} else {
				_, _, err = e.Create(context.Background(), mg, marker)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			// "..." stands for the request's URL, which names the test server's port.
			head, tail, _ := strings.Cut(tc.wantErr, " ... ")
			if (tc.wantErr == "") != (got == "") || !strings.HasPrefix(got, head) || !strings.Contains(got, tail) {
				t.Errorf("error %q, want %q", got, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, f.requests, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("requests: -want +got:\n%s", diff)
			}
		})
	}
}
