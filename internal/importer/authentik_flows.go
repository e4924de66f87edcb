package importer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// The authentik flow kinds.
const (
	kindFlow             = "Flow"
	kindStage            = "Stage"
	kindFlowStageBinding = "FlowStageBinding"
)

const (
	skipBuiltInFlow    = "is one of the flows or stages authentik ships: left out; pass --include-builtin to import it"
	skipBuiltInBinding = "binds into flow %q, which authentik ships: left out; pass --include-builtin to import it"
	unsupportedStage   = "is a %s, a type the Stage kind has no block for (identification, password, user login, user logout, deny, consent, authenticator validation, user write, prompt): skipped"
	noteMarkerless     = "authentik keeps no marker on flows, stages and bindings (ADR 0002): one that another installation manages cannot be told from a hand-made one, so make sure none does before adopting it"
)

// builtInFlows and builtInStagePrefixes are what authentik's default blueprints make: flows
// whose slug, and stages whose name, start with default- (and stage-default-), the
// out-of-box setup flow, and the platform SSO flow with its stages. Names, not provenance:
// authentik records on a flow or stage nothing that says a blueprint made it, so
// --include-builtin lists them all.
var (
	builtInFlowSlugs     = []string{"initial-setup", "endpoints-agent-psso-password"}
	builtInStagePrefixes = []string{"default-", "stage-default-", "endpoints-agent-psso-password-"}
)

func builtInFlow(slug string) bool {
	return strings.HasPrefix(slug, "default-") || slices.Contains(builtInFlowSlugs, slug)
}

func builtInStage(name string) bool {
	return slices.ContainsFunc(builtInStagePrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// akMarkerless fills what the markerless flow kinds share: a resource in the cluster is the
// only record that one is managed, and nothing tells another installation's apart.
func akMarkerless(kind, describe, id, name string) *Object {
	o := akObject(kind, describe, id, name)
	o.Markerless = true
	o.Notes = []string{noteMarkerless}
	return o
}

// flowObjects makes the flows, read with the references; a flow's external name is its slug.
func (l *akLister) flowObjects(context.Context) error {
	for _, f := range l.flowList {
		o := akMarkerless(kindFlow, describeAk("flow", f.Name, "slug", f.Slug), f.Slug, f.Slug)
		if !l.f.BuiltIn && builtInFlow(f.Slug) {
			o.Unsupported = skipBuiltInFlow
		}
		fp := akv1.FlowParameters{Name: f.Name, Slug: f.Slug, Title: f.Title, Designation: string(f.Designation),
			Authentication: (*string)(f.Authentication), Layout: (*string)(f.Layout),
			PolicyEngineMode: (*string)(f.PolicyEngineMode), DeniedAction: (*string)(f.DeniedAction),
			CompatibilityMode: f.CompatibilityMode}
		o.Build = func(Refs) any { return fp }
		l.emit(o)
	}
	return nil
}

// listStageNames reads every stage's name, of any type (/stages/all/); once per run.
func (l *akLister) listStageNames(ctx context.Context) ([]api.Stage, error) {
	all, err := listAll(ctx, "stages", func(p int32) ([]api.Stage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesAllList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return nil, err
	}
	l.stageNames = map[string]string{}
	for _, s := range all {
		l.stageNames[s.Pk] = s.Name
	}
	return all, nil
}

// stages makes the stages: every stage is listed with its type, and those of a type the Stage
// kind has a block for are read through their type's list for the block.
func (l *akLister) stages(ctx context.Context) error {
	if !l.f.kind(kindStage) && !l.f.kind(kindFlowStageBinding) && !l.f.kind(kindPolicyBinding) {
		return nil
	}
	all, err := l.listStageNames(ctx)
	if err != nil || !l.f.kind(kindStage) {
		return err
	}
	blocks, err := l.stageBlocks(ctx)
	if err != nil {
		return err
	}
	for _, s := range all {
		o := akMarkerless(kindStage, describeAk(strings.ToLower(s.VerboseName), s.Name, "pk", s.Pk), s.Pk, s.Name)
		block, ok := blocks[s.Pk]
		switch {
		case !l.f.BuiltIn && builtInStage(s.Name):
			o.Unsupported = skipBuiltInFlow
		case !ok:
			o.Unsupported = fmt.Sprintf(unsupportedStage, strings.ToLower(s.VerboseName))
		}
		fp := akv1.StageParameters{Name: s.Name}
		if ok {
			block(o, &fp)
		}
		refs := l.stageRefs[s.Pk]
		o.Build = func(r Refs) any {
			out := fp
			if refs != nil {
				refs(r, &out)
			}
			return out
		}
		l.emit(o)
	}
	return nil
}

// bindings makes the flow-stage bindings; a binding refers to its flow and stage by their
// resources when they are imported, else by slug and UUID.
func (l *akLister) bindings(ctx context.Context) error {
	if !l.f.kind(kindFlowStageBinding) {
		return nil
	}
	bs, err := l.flowStageBindings(ctx)
	if err != nil {
		return err
	}
	for _, b := range bs {
		l.emit(l.binding(b))
	}
	return nil
}

// flowStageBindings reads every flow-stage binding, once per run: bindings and policy
// bindings (whose targets they may be) both need them.
func (l *akLister) flowStageBindings(ctx context.Context) ([]api.FlowStageBinding, error) {
	if l.fsbRead {
		return l.fsbList, nil
	}
	bs, err := listAll(ctx, "flow-stage bindings", func(p int32) ([]api.FlowStageBinding, api.Pagination, error) {
		r, resp, err := l.api.FlowsAPI.FlowsBindingsList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	l.fsbList, l.fsbRead = bs, err == nil
	return bs, err
}

func (l *akLister) binding(b api.FlowStageBinding) *Object {
	slug := l.flows[b.Target]
	stage := l.stageNames[b.Stage]
	describe := fmt.Sprintf("authentik flow-stage binding of stage %q into flow %q at order %d (pk %s)", stage, slug, b.Order, b.Pk)
	o := akMarkerless(kindFlowStageBinding, describe, b.Pk, slug+"-"+stage)
	l.flow(o, b.Target)
	if _, ok := l.stageNames[b.Stage]; !ok && o.Unsupported == "" {
		o.Unsupported = fmt.Sprintf(unsupportedMissingRef, "stage", b.Stage)
	}
	if !l.f.BuiltIn && builtInFlow(slug) {
		o.Unsupported = fmt.Sprintf(skipBuiltInBinding, slug)
	}
	o.Build = func(r Refs) any {
		fp := akv1.FlowStageBindingParameters{Order: b.Order, EvaluateOnPlan: b.EvaluateOnPlan, ReEvaluatePolicies: b.ReEvaluatePolicies,
			InvalidResponseAction: (*string)(b.InvalidResponseAction), PolicyEngineMode: (*string)(b.PolicyEngineMode)}
		fp.FlowRef, fp.Flow = ref(r, kindFlow, slug)
		fp.StageRef, fp.StageID = ref(r, kindStage, b.Stage)
		return fp
	}
	return o
}
