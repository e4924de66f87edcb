package policy

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// A policyType is one policy type: the spec's block, authentik's model and its typed endpoint
// (/policies/<type>/). Objects travel as Fields, so the driver is written once for all types;
// deletes go through /policies/all/, which deletes any type.
type policyType struct {
	// block is the spec.forProvider field that selects the type.
	block string
	// model is authentik's meta_model_name of the type.
	model    string
	retrieve func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error)
	create   func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error)
	patch    func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error)
}

// asFields renders what a typed call returned.
func asFields[T any](o *T, resp *http.Response, err error) (shared.Fields, *http.Response, error) {
	if err != nil {
		return nil, resp, err
	}
	f, err := shared.ToFields(o)
	return f, resp, err
}

// send decodes the fields into the typed request R and makes the call.
func send[R, T any](f shared.Fields, do func(R) (*T, *http.Response, error)) (shared.Fields, *http.Response, error) {
	req, err := shared.Decode[R](f)
	if err != nil {
		return nil, nil, err
	}
	o, resp, err := do(req)
	return asFields(o, resp, err)
}

var (
	expression = policyType{
		block: "expression", model: "authentik_policies_expression.expressionpolicy",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.PoliciesAPI.PoliciesExpressionRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.ExpressionPolicyRequest) (*api.ExpressionPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesExpressionCreate(ctx).ExpressionPolicyRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedExpressionPolicyRequest) (*api.ExpressionPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesExpressionPartialUpdate(ctx, pk).PatchedExpressionPolicyRequest(r).Execute()
			})
		},
	}
	password = policyType{
		block: "password", model: "authentik_policies_password.passwordpolicy",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.PoliciesAPI.PoliciesPasswordRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PasswordPolicyRequest) (*api.PasswordPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesPasswordCreate(ctx).PasswordPolicyRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedPasswordPolicyRequest) (*api.PasswordPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesPasswordPartialUpdate(ctx, pk).PatchedPasswordPolicyRequest(r).Execute()
			})
		},
	}
	reputation = policyType{
		block: "reputation", model: "authentik_policies_reputation.reputationpolicy",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.PoliciesAPI.PoliciesReputationRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.ReputationPolicyRequest) (*api.ReputationPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesReputationCreate(ctx).ReputationPolicyRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedReputationPolicyRequest) (*api.ReputationPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesReputationPartialUpdate(ctx, pk).PatchedReputationPolicyRequest(r).Execute()
			})
		},
	}
	eventMatcher = policyType{
		block: "eventMatcher", model: "authentik_policies_event_matcher.eventmatcherpolicy",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.PoliciesAPI.PoliciesEventMatcherRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.EventMatcherPolicyRequest) (*api.EventMatcherPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesEventMatcherCreate(ctx).EventMatcherPolicyRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedEventMatcherPolicyRequest) (*api.EventMatcherPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesEventMatcherPartialUpdate(ctx, pk).PatchedEventMatcherPolicyRequest(r).Execute()
			})
		},
	}
	passwordExpiry = policyType{
		block: "passwordExpiry", model: "authentik_policies_expiry.passwordexpirypolicy",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.PoliciesAPI.PoliciesPasswordExpiryRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PasswordExpiryPolicyRequest) (*api.PasswordExpiryPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesPasswordExpiryCreate(ctx).PasswordExpiryPolicyRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedPasswordExpiryPolicyRequest) (*api.PasswordExpiryPolicy, *http.Response, error) {
				return c.PoliciesAPI.PoliciesPasswordExpiryPartialUpdate(ctx, pk).PatchedPasswordExpiryPolicyRequest(r).Execute()
			})
		},
	}
)

// typeOf is the type the spec's block selects; nil when no block (or, for a resource stored
// before the CEL rule, more than one) is set.
func typeOf(fp *v1alpha1.PolicyParameters) *policyType {
	var t *policyType
	n := 0
	for _, c := range []struct {
		set bool
		t   *policyType
	}{
		{fp.Expression != nil, &expression}, {fp.Password != nil, &password}, {fp.Reputation != nil, &reputation},
		{fp.EventMatcher != nil, &eventMatcher}, {fp.PasswordExpiry != nil, &passwordExpiry},
	} {
		if c.set {
			t, n = c.t, n+1
		}
	}
	if n != 1 {
		return nil
	}
	return t
}

// desired is what the spec sets, in authentik's wire format: unset fields are absent, so they
// are neither compared nor written.
func desired(fp *v1alpha1.PolicyParameters, t *policyType) shared.Fields {
	f := shared.Fields{"name": fp.Name}
	f.Bool("execution_logging", fp.ExecutionLogging)
	switch t {
	case &expression:
		f["expression"] = fp.Expression.Expression
	case &password:
		passwordFields(fp.Password, f)
	case &reputation:
		r := fp.Reputation
		f.Bool("check_ip", r.CheckIP)
		f.Bool("check_username", r.CheckUsername)
		f.Int("threshold", r.Threshold)
	case &eventMatcher:
		m := fp.EventMatcher
		f.NullableStr("action", m.Action)
		f.NullableStr("client_ip", m.ClientIP)
		f.NullableStr("app", m.App)
		f.NullableStr("model", m.Model)
	case &passwordExpiry:
		f["days"] = float64(fp.PasswordExpiry.Days)
		f.Bool("deny_only", fp.PasswordExpiry.DenyOnly)
	}
	return f
}

func passwordFields(p *v1alpha1.PasswordPolicy, f shared.Fields) {
	f.Str("password_field", p.PasswordField)
	f.Bool("check_static_rules", p.CheckStaticRules)
	f.Bool("check_have_i_been_pwned", p.CheckHaveIBeenPwned)
	f.Bool("check_zxcvbn", p.CheckZxcvbn)
	f.Int("length_min", p.LengthMin)
	f.Int("amount_digits", p.AmountDigits)
	f.Int("amount_uppercase", p.AmountUppercase)
	f.Int("amount_lowercase", p.AmountLowercase)
	f.Int("amount_symbols", p.AmountSymbols)
	f.Str("symbol_charset", p.SymbolCharset)
	f.Str("error_message", p.ErrorMessage)
	f.Int("hibp_allowed_count", p.HIBPAllowedCount)
	f.Int("zxcvbn_score_threshold", p.ZxcvbnScoreThreshold)
}
