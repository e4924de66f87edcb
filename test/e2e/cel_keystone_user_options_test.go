//go:build e2e

package e2e

import (
	"strings"
	"testing"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// Each rule of spec.forProvider.options.multiFactorAuthRules refuses what Keystone would refuse.
func TestCELKeystoneUserOptions(t *testing.T) {
	t.Parallel()
	rules := func(r ...ksv1alpha1.MFARule) func(*ksv1alpha1.User) {
		return func(u *ksv1alpha1.User) {
			u.Spec.ForProvider.Options = &ksv1alpha1.UserOptions{MultiFactorAuthRules: r}
		}
	}
	cases := map[string]struct {
		mutate func(*ksv1alpha1.User)
		want   string
	}{
		"EmptyRule":      {rules(ksv1alpha1.MFARule{"password"}, ksv1alpha1.MFARule{}), "every rule names at least one authentication method"},
		"RuleTwice":      {rules(ksv1alpha1.MFARule{"password", "totp"}, ksv1alpha1.MFARule{"password", "totp"}), "a rule is given twice"},
		"MethodTwice":    {rules(ksv1alpha1.MFARule{"totp", "totp"}), "a rule names a method twice"},
		"MethodNotAName": {rules(ksv1alpha1.MFARule{"pass word"}), "a method is the name of a Keystone authentication method"},
		"TooManyMethods": {rules(ksv1alpha1.MFARule{"a", "b", "c", "d", "e", "f", "g", "h", "i"}), "must have at most 8 items"},
		"MethodTooLong":  {rules(ksv1alpha1.MFARule{strings.Repeat("a", 65)}), "may not be more than 64 bytes"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rejected(t, celUser("cel-user-options-"+strings.ToLower(name), tc.mutate), tc.want)
		})
	}
	t.Run("ValidRulesAccepted", func(t *testing.T) {
		create(t, celUser("cel-user-options-ok", rules(ksv1alpha1.MFARule{"password", "totp"}, ksv1alpha1.MFARule{"password", "application_credential"})))
	})
}
