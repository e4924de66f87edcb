package importer

import (
	"context"
	"fmt"
	"strings"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// The authentik policy kinds.
const (
	kindPolicy        = "Policy"
	kindPolicyBinding = "PolicyBinding"
)

const (
	skipBuiltInPolicy     = "is one of the policies authentik's default blueprints make (its name starts with default-): left out; pass --include-builtin to import it"
	skipBuiltInPolBinding = "%s, which authentik ships: left out; pass --include-builtin to import it"
	unsupportedPolicy     = "is a %s, a type the Policy kind has no block for (expression, password, reputation, event matcher, password expiry): skipped"
	unsupportedMatcher    = "matches on none of action, client IP, app and model (only on a query, or on nothing), which an eventMatcher block cannot say: skipped"
	unsupportedTarget     = "applies to %s, which is not an application, a flow or a flow-stage binding this run listed (a source, a notification rule...): a PolicyBinding cannot name it; skipped"
	unsupportedBound      = "binds no policy, group or user: skipped"
)

// builtInPolicy tells the policies authentik's default blueprints make, by name (as for
// flows: authentik records nothing on a policy that says a blueprint made it).
func builtInPolicy(name string) bool { return strings.HasPrefix(name, "default-") }

// A policyBlock fills a policy's type block into its parameters; "" or why the block cannot
// say the policy.
type policyBlock func(fp *akv1.PolicyParameters) string

// policies makes the policies: every policy is listed with its type (/policies/all/), and
// those of a type the Policy kind has a block for are read through their type's list for the
// block (ADR 0008).
func (l *akLister) policies(ctx context.Context) error {
	if !l.f.kind(kindPolicy) {
		return nil
	}
	all, err := listAll(ctx, "policies", func(p int32) ([]api.Policy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesAllList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	blocks, err := l.policyBlocks(ctx)
	if err != nil {
		return err
	}
	for _, p := range all {
		o := akMarkerlessObj(kindPolicy, describeAk(strings.ToLower(p.VerboseName), p.Name, "pk", p.Pk), p.Pk, p.Name, "policies")
		fp := akv1.PolicyParameters{Name: p.Name, ExecutionLogging: p.ExecutionLogging}
		block, ok := blocks[p.Pk]
		switch {
		case !l.f.BuiltIn && builtInPolicy(p.Name):
			o.Unsupported = skipBuiltInPolicy
		case !ok:
			o.Unsupported = fmt.Sprintf(unsupportedPolicy, strings.ToLower(p.VerboseName))
		default:
			o.Unsupported = block(&fp)
		}
		o.Build = func(Refs) any { return fp }
		l.emit(o)
	}
	return nil
}

// policyBlocks reads the policies of every type the Policy kind has a block for, by pk: one
// list per type.
func (l *akLister) policyBlocks(ctx context.Context) (map[string]policyBlock, error) {
	out := map[string]policyBlock{}
	for _, read := range []func(context.Context, map[string]policyBlock) error{
		l.expressionPolicies, l.passwordPolicies, l.reputationPolicies, l.eventMatcherPolicies, l.passwordExpiryPolicies,
	} {
		if err := read(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (l *akLister) expressionPolicies(ctx context.Context, out map[string]policyBlock) error {
	ps, err := listAll(ctx, "expression policies", func(p int32) ([]api.ExpressionPolicy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesExpressionList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		out[p.Pk] = func(fp *akv1.PolicyParameters) string {
			fp.Expression = &akv1.ExpressionPolicy{Expression: p.Expression}
			return ""
		}
	}
	return err
}

func (l *akLister) passwordPolicies(ctx context.Context, out map[string]policyBlock) error {
	ps, err := listAll(ctx, "password policies", func(p int32) ([]api.PasswordPolicy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesPasswordList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		// The password field and the symbols cannot be empty in a spec; authentik would not
		// keep them empty either, so an empty one is left unset.
		b := &akv1.PasswordPolicy{PasswordField: nonEmpty(deref(p.PasswordField)), CheckStaticRules: p.CheckStaticRules,
			CheckHaveIBeenPwned: p.CheckHaveIBeenPwned, CheckZxcvbn: p.CheckZxcvbn, LengthMin: p.LengthMin,
			AmountDigits: p.AmountDigits, AmountUppercase: p.AmountUppercase, AmountLowercase: p.AmountLowercase,
			AmountSymbols: p.AmountSymbols, SymbolCharset: nonEmpty(deref(p.SymbolCharset)), ErrorMessage: p.ErrorMessage,
			HIBPAllowedCount: p.HibpAllowedCount, ZxcvbnScoreThreshold: p.ZxcvbnScoreThreshold}
		out[p.Pk] = func(fp *akv1.PolicyParameters) string { fp.Password = b; return "" }
	}
	return err
}

func (l *akLister) reputationPolicies(ctx context.Context, out map[string]policyBlock) error {
	ps, err := listAll(ctx, "reputation policies", func(p int32) ([]api.ReputationPolicy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesReputationList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		b := &akv1.ReputationPolicy{CheckIP: p.CheckIp, CheckUsername: p.CheckUsername, Threshold: p.Threshold}
		out[p.Pk] = func(fp *akv1.PolicyParameters) string { fp.Reputation = b; return "" }
	}
	return err
}

func (l *akLister) eventMatcherPolicies(ctx context.Context, out map[string]policyBlock) error {
	ps, err := listAll(ctx, "event matcher policies", func(p int32) ([]api.EventMatcherPolicy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesEventMatcherList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		// A criterion authentik has as null is left unset: the spec leaves it alone.
		b := &akv1.EventMatcherPolicy{ClientIP: nonEmpty(p.GetClientIp())}
		if a := p.Action.Get(); a != nil && *a != "" {
			b.Action = new(string(*a))
		}
		if a := p.App.Get(); a != nil && *a != "" {
			b.App = new(string(*a))
		}
		if m := p.Model.Get(); m != nil && *m != "" {
			b.Model = new(string(*m))
		}
		out[p.Pk] = func(fp *akv1.PolicyParameters) string {
			if b.Action == nil && b.ClientIP == nil && b.App == nil && b.Model == nil {
				return unsupportedMatcher
			}
			fp.EventMatcher = b
			return ""
		}
	}
	return err
}

func (l *akLister) passwordExpiryPolicies(ctx context.Context, out map[string]policyBlock) error {
	ps, err := listAll(ctx, "password expiry policies", func(p int32) ([]api.PasswordExpiryPolicy, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesPasswordExpiryList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		b := &akv1.PasswordExpiryPolicy{Days: p.Days, DenyOnly: p.DenyOnly}
		out[p.Pk] = func(fp *akv1.PolicyParameters) string { fp.PasswordExpiry = b; return "" }
	}
	return err
}
