//go:build e2e

package e2e

import (
	"strings"
	"testing"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func celRegisteredLimit(name string, m func(*ksv1alpha1.RegisteredLimitParameters)) *ksv1alpha1.RegisteredLimit {
	fp := ksv1alpha1.RegisteredLimitParameters{ServiceID: ptr("s1"), ResourceName: "cores", DefaultLimit: 10}
	if m != nil {
		m(&fp)
	}
	return newRegisteredLimit(name, fp, func(r *ksv1alpha1.RegisteredLimit) {
		r.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func celLimit(name string, m func(*ksv1alpha1.LimitParameters)) *ksv1alpha1.Limit {
	fp := ksv1alpha1.LimitParameters{ProjectID: ptr("p1"), ServiceID: ptr("s1"), ResourceName: "cores", ResourceLimit: 5}
	if m != nil {
		m(&fp)
	}
	return newLimit(name, fp, func(l *ksv1alpha1.Limit) { l.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig} })
}

// Every rule of RegisteredLimit and Limit refuses what it says, at creation or on a change.
func TestCELKeystoneLimits(t *testing.T) {
	t.Parallel()
	rlCreates := map[string]struct {
		m    func(*ksv1alpha1.RegisteredLimitParameters)
		want string
	}{
		"ServiceIDNotAnID":       {func(p *ksv1alpha1.RegisteredLimitParameters) { p.ServiceID = ptr("s 1") }, "serviceId must be a Keystone service ID"},
		"RegionControlCharacter": {func(p *ksv1alpha1.RegisteredLimitParameters) { p.RegionID = ptr("Region\nOne") }, "regionId must not contain control characters"},
		"ResourceControlChar":    {func(p *ksv1alpha1.RegisteredLimitParameters) { p.ResourceName = "co\tres" }, "resourceName must not contain control characters"},
		"DefaultBelowMinusOne":   {func(p *ksv1alpha1.RegisteredLimitParameters) { p.DefaultLimit = -2 }, "should be greater than or equal to -1"},
		"DefaultAboveInt32":      {func(p *ksv1alpha1.RegisteredLimitParameters) { p.DefaultLimit = 1 << 31 }, "should be less than or equal to 2147483647"},
		"DescriptionControlChar": {func(p *ksv1alpha1.RegisteredLimitParameters) { p.Description = ptr("a\x07b") }, "description must not contain control characters"},
		"NoService":              {func(p *ksv1alpha1.RegisteredLimitParameters) { p.ServiceID = nil }, "a registered limit is of a service"},
	}
	for name, tc := range rlCreates {
		t.Run("RegisteredLimit"+name, func(t *testing.T) {
			rejected(t, celRegisteredLimit("cel-rl-"+strings.ToLower(name), tc.m), tc.want)
		})
	}
	rlChanges := map[string]struct {
		m    func(*ksv1alpha1.RegisteredLimit)
		want string
	}{
		"ServiceChanged":  {func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.ServiceID = ptr("s2") }, "serviceId cannot be changed"},
		"ResourceChanged": {func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.ResourceName = "ram" }, "resourceName cannot be changed"},
		"RegionSet":       {func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.RegionID = ptr("RegionOne") }, "a region cannot be set after creation"},
		"RegionRefSet":    {func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.RegionRef = &xpv2.Reference{Name: "r"} }, "a region cannot be set after creation"},
	}
	for name, tc := range rlChanges {
		t.Run("RegisteredLimit"+name, func(t *testing.T) {
			rejectedChange(t, celRegisteredLimit("cel-rl-"+strings.ToLower(name), nil), tc.m, tc.want)
		})
	}
	t.Run("RegisteredLimitRegionChanged", func(t *testing.T) {
		rejectedChange(t, celRegisteredLimit("cel-rl-regionchanged", func(p *ksv1alpha1.RegisteredLimitParameters) { p.RegionID = ptr("RegionOne") }),
			func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.RegionID = ptr("RegionTwo") }, "regionId cannot be changed")
	})
	t.Run("RegisteredLimitRegionUnset", func(t *testing.T) {
		rejectedChange(t, celRegisteredLimit("cel-rl-regionunset", func(p *ksv1alpha1.RegisteredLimitParameters) { p.RegionID = ptr("RegionOne") }),
			func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.RegionID = nil }, "regionId cannot be unset after creation")
	})
	t.Run("RegisteredLimitRefsResolveOnce", func(t *testing.T) {
		// Filling serviceId and regionId in from their references (what resolution does) is allowed.
		rl := celRegisteredLimit("cel-rl-refs", func(p *ksv1alpha1.RegisteredLimitParameters) {
			p.ServiceID, p.ServiceRef, p.RegionRef = nil, &xpv2.Reference{Name: "s"}, &xpv2.Reference{Name: "r"}
		})
		create(t, rl)
		update(t, rl, func(r *ksv1alpha1.RegisteredLimit) {
			r.Spec.ForProvider.ServiceID, r.Spec.ForProvider.RegionID = ptr("resolved"), ptr("RegionOne")
		})
	})

	ref := &xpv2.Reference{Name: "x"}
	both := "a limit is for a project or for a domain"
	lCreates := map[string]struct {
		m    func(*ksv1alpha1.LimitParameters)
		want string
	}{
		"NeitherProjectNorDomain": {func(p *ksv1alpha1.LimitParameters) { p.ProjectID = nil }, both},
		"ProjectAndDomain":        {func(p *ksv1alpha1.LimitParameters) { p.DomainRef = ref }, both},
		"ProjectIDNotAnID":        {func(p *ksv1alpha1.LimitParameters) { p.ProjectID = ptr("p/1") }, "projectId must be a Keystone project ID"},
		"DomainIDNotAnID":         {func(p *ksv1alpha1.LimitParameters) { p.ProjectID, p.DomainID = nil, ptr("d 1") }, "domainId must be a Keystone domain ID"},
		"ServiceIDNotAnID":        {func(p *ksv1alpha1.LimitParameters) { p.ServiceID = ptr("s_1") }, "serviceId must be a Keystone service ID"},
		"RegionControlCharacter":  {func(p *ksv1alpha1.LimitParameters) { p.RegionID = ptr("R\x01") }, "regionId must not contain control characters"},
		"ResourceControlChar":     {func(p *ksv1alpha1.LimitParameters) { p.ResourceName = "co\nres" }, "resourceName must not contain control characters"},
		"LimitBelowMinusOne":      {func(p *ksv1alpha1.LimitParameters) { p.ResourceLimit = -5 }, "should be greater than or equal to -1"},
		"DescriptionControlChar":  {func(p *ksv1alpha1.LimitParameters) { p.Description = ptr("\x1b[0m") }, "description must not contain control characters"},
		"NoService":               {func(p *ksv1alpha1.LimitParameters) { p.ServiceID = nil }, "a limit is of a service"},
	}
	for name, tc := range lCreates {
		t.Run("Limit"+name, func(t *testing.T) {
			rejected(t, celLimit("cel-limit-"+strings.ToLower(name), tc.m), tc.want)
		})
	}
	lChanges := map[string]struct {
		m    func(*ksv1alpha1.Limit)
		want string
	}{
		"ProjectChanged":  {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ProjectID = ptr("p2") }, "projectId cannot be changed"},
		"ToADomain":       {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ProjectID, l.Spec.ForProvider.DomainID = nil, ptr("d1") }, "a limit cannot move between a project and a domain"},
		"ServiceChanged":  {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ServiceID = ptr("s2") }, "serviceId cannot be changed"},
		"ResourceChanged": {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ResourceName = "ram" }, "resourceName cannot be changed"},
		"RegionSet":       {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.RegionID = ptr("RegionOne") }, "a region cannot be set after creation"},
		"RegionSelector":  {func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.RegionSelector = &xpv2.Selector{} }, "a region cannot be set after creation"},
	}
	for name, tc := range lChanges {
		t.Run("Limit"+name, func(t *testing.T) {
			rejectedChange(t, celLimit("cel-limit-"+strings.ToLower(name), nil), tc.m, tc.want)
		})
	}
	t.Run("LimitDomainChanged", func(t *testing.T) {
		rejectedChange(t, celLimit("cel-limit-domainchanged", func(p *ksv1alpha1.LimitParameters) { p.ProjectID, p.DomainID = nil, ptr("d1") }),
			func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.DomainID = ptr("d2") }, "domainId cannot be changed")
	})
	t.Run("LimitRegionChanged", func(t *testing.T) {
		rejectedChange(t, celLimit("cel-limit-regionchanged", func(p *ksv1alpha1.LimitParameters) { p.RegionID = ptr("RegionOne") }),
			func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.RegionID = ptr("RegionTwo") }, "regionId cannot be changed")
	})
	t.Run("LimitRegionUnset", func(t *testing.T) {
		rejectedChange(t, celLimit("cel-limit-regionunset", func(p *ksv1alpha1.LimitParameters) { p.RegionID = ptr("RegionOne") }),
			func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.RegionID = nil }, "regionId cannot be unset after creation")
	})
	t.Run("LimitRefsResolveOnce", func(t *testing.T) {
		// Filling projectId, serviceId and regionId in from their references (what resolution does)
		// is allowed.
		l := celLimit("cel-limit-ref", func(p *ksv1alpha1.LimitParameters) {
			p.ProjectID, p.ProjectRef = nil, ref
			p.ServiceID, p.ServiceRef, p.RegionSelector = nil, ref, &xpv2.Selector{MatchLabels: map[string]string{"region": "one"}}
		})
		create(t, l)
		update(t, l, func(l *ksv1alpha1.Limit) {
			l.Spec.ForProvider.ProjectID, l.Spec.ForProvider.ServiceID, l.Spec.ForProvider.RegionID = ptr("resolved"), ptr("resolved"), ptr("RegionOne")
		})
	})
}
