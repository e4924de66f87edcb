package importer

import (
	"context"
	"fmt"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The unified-limit kinds.
const (
	kindRegisteredLimit = "RegisteredLimit"
	kindLimit           = "Limit"
)

// limitObject fills what registered limits and limits share: the marker is the description's
// last line, as the drivers read it, and the spec's description is the rest.
func limitObject(kind, typ, id, name, description string) (*Object, *string) {
	o := &Object{
		Kind: kind, APIVersion: v1alpha1.SchemeGroupVersion.String(),
		GroupKind: v1alpha1.SchemeGroupVersion.WithKind(kind).GroupKind().String(),
		ID:        id, Name: name, Describe: fmt.Sprintf("Keystone %s %q (ID %s)", typ, name, id),
	}
	rest, m, found, err := provenance.ExtractFromText(description)
	if found && err == nil {
		o.Marker = &m
	}
	return o, nonEmpty(rest)
}

// limits lists the registered limits (which belong to no domain: without --domain only) and the
// limits of the projects and domains in scope.
func (l *ksLister) limits(ctx context.Context) error {
	if l.f.kind(kindRegisteredLimit) && l.f.Domain == "" {
		rls, err := keystone.RegisteredLimits.List(ctx, l.sc, nil)
		if err != nil {
			return keystone.Wrap(err, errList, "registered limits")
		}
		for _, rl := range rls {
			if !l.f.name(rl.ResourceName) {
				continue
			}
			o, desc := limitObject(kindRegisteredLimit, "registered limit", rl.ID, rl.ResourceName, deref(rl.Description))
			o.Build = func(r Refs) any {
				fp := v1alpha1.RegisteredLimitParameters{ResourceName: rl.ResourceName, DefaultLimit: rl.DefaultLimit, Description: desc}
				fp.ServiceRef, fp.ServiceID = ref(r, kindService, rl.ServiceID)
				fp.RegionRef, fp.RegionID = ref(r, kindRegion, deref(rl.RegionID))
				return fp
			}
			l.out = append(l.out, o)
		}
	}
	if !l.f.kind(kindLimit) {
		return nil
	}
	ls, err := keystone.Limits.List(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "limits")
	}
	for _, lim := range ls {
		if !l.limitInScope(lim) || !l.f.name(lim.ResourceName) {
			continue
		}
		o, desc := limitObject(kindLimit, "limit", lim.ID, lim.ResourceName, deref(lim.Description))
		o.Build = func(r Refs) any {
			fp := v1alpha1.LimitParameters{ResourceName: lim.ResourceName, ResourceLimit: lim.ResourceLimit, Description: desc}
			fp.ServiceRef, fp.ServiceID = ref(r, kindService, lim.ServiceID)
			fp.RegionRef, fp.RegionID = ref(r, kindRegion, deref(lim.RegionID))
			if lim.ProjectID != nil {
				fp.ProjectRef, fp.ProjectID = ref(r, kindProject, *lim.ProjectID)
			} else {
				fp.DomainRef, fp.DomainID = ref(r, kindDomain, deref(lim.DomainID))
			}
			return fp
		}
		l.out = append(l.out, o)
	}
	return nil
}

// limitInScope: a project's limit when the project was listed, a domain's when the domain is
// in scope.
func (l *ksLister) limitInScope(lim keystone.Limit) bool {
	if lim.ProjectID != nil {
		_, ok := l.projectDomain[*lim.ProjectID]
		return ok
	}
	_, ok := l.domainName[deref(lim.DomainID)]
	return ok
}
