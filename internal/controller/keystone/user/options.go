package user

import (
	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// Keystone's options are compared and written one by one: only those the spec sets. An option
// the spec leaves out keeps what Keystone holds (set by hand, or a server default), and an
// option removed from the spec is left as it is, not reset.

// wantOptions is what the spec asks of Keystone's options; nil when it sets none.
func wantOptions(o *v1alpha1.UserOptions) *keystone.UserOptions {
	if o == nil {
		return nil
	}
	w := &keystone.UserOptions{
		IgnoreChangePasswordUponFirstUse: o.IgnoreChangePasswordUponFirstUse,
		IgnorePasswordExpiry:             o.IgnorePasswordExpiry,
		IgnoreLockoutFailureAttempts:     o.IgnoreLockoutFailureAttempts,
		LockPassword:                     o.LockPassword,
		IgnoreUserInactivity:             o.IgnoreUserInactivity,
		MultiFactorAuthEnabled:           o.MultiFactorAuthEnabled,
	}
	if len(o.MultiFactorAuthRules) > 0 {
		rules := make([][]string, 0, len(o.MultiFactorAuthRules))
		for _, r := range o.MultiFactorAuthRules {
			rules = append(rules, append([]string{}, r...))
		}
		w.MultiFactorAuthRules = &rules
	}
	if *w == (keystone.UserOptions{}) {
		return nil
	}
	return w
}

// haveOptions projects Keystone's options onto those the spec sets, so that options the spec
// leaves out never differ. An option the spec sets that Keystone does not hold is absent, so
// it differs from any value.
func haveOptions(o *v1alpha1.UserOptions, k keystone.UserOptions) *keystone.UserOptions {
	if o == nil {
		return nil
	}
	pick := func(set, v *bool) *bool {
		if set == nil {
			return nil
		}
		return v
	}
	h := &keystone.UserOptions{
		IgnoreChangePasswordUponFirstUse: pick(o.IgnoreChangePasswordUponFirstUse, k.IgnoreChangePasswordUponFirstUse),
		IgnorePasswordExpiry:             pick(o.IgnorePasswordExpiry, k.IgnorePasswordExpiry),
		IgnoreLockoutFailureAttempts:     pick(o.IgnoreLockoutFailureAttempts, k.IgnoreLockoutFailureAttempts),
		LockPassword:                     pick(o.LockPassword, k.LockPassword),
		IgnoreUserInactivity:             pick(o.IgnoreUserInactivity, k.IgnoreUserInactivity),
		MultiFactorAuthEnabled:           pick(o.MultiFactorAuthEnabled, k.MultiFactorAuthEnabled),
	}
	if len(o.MultiFactorAuthRules) > 0 {
		h.MultiFactorAuthRules = k.MultiFactorAuthRules
	}
	if *h == (keystone.UserOptions{}) {
		return nil
	}
	return h
}

// Options are every option Keystone holds, as the spec and status spell them; nil when it holds
// none. The importer writes them into the spec of an imported User.
func Options(k keystone.UserOptions) *v1alpha1.UserOptions {
	o := &v1alpha1.UserOptions{
		IgnoreChangePasswordUponFirstUse: k.IgnoreChangePasswordUponFirstUse,
		IgnorePasswordExpiry:             k.IgnorePasswordExpiry,
		IgnoreLockoutFailureAttempts:     k.IgnoreLockoutFailureAttempts,
		LockPassword:                     k.LockPassword,
		IgnoreUserInactivity:             k.IgnoreUserInactivity,
		MultiFactorAuthEnabled:           k.MultiFactorAuthEnabled,
	}
	if k.MultiFactorAuthRules != nil {
		o.MultiFactorAuthRules = []v1alpha1.MFARule{}
		for _, r := range *k.MultiFactorAuthRules {
			o.MultiFactorAuthRules = append(o.MultiFactorAuthRules, v1alpha1.MFARule(r))
		}
	}
	if cmp.Equal(o, &v1alpha1.UserOptions{}) {
		return nil
	}
	return o
}
