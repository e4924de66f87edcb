package importer

import (
	"context"
	"fmt"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// The Keystone service catalog kinds.
const (
	kindRegion   = "Region"
	kindService  = "Service"
	kindEndpoint = "Endpoint"
)

// catalog lists the regions, services and endpoints. They belong to no domain, so an import
// limited to one (--domain) lists none of them.
func (l *ksLister) catalog(ctx context.Context) error {
	if l.f.Domain != "" || (!l.f.kind(kindRegion) && !l.f.kind(kindService) && !l.f.kind(kindEndpoint)) {
		return nil
	}
	if err := l.regions(ctx); err != nil {
		return err
	}
	services, err := l.services(ctx)
	if err != nil {
		return err
	}
	return l.endpoints(ctx, services)
}

func (l *ksLister) regions(ctx context.Context) error {
	if !l.f.kind(kindRegion) {
		return nil
	}
	rs, err := keystone.Regions.List(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "regions")
	}
	for _, r := range rs {
		if l.f.name(r.ID) {
			l.out = append(l.out, regionObject(r))
		}
	}
	return nil
}

// services lists the services (also for endpoints alone: an endpoint is named after its
// service) and returns their names by ID.
func (l *ksLister) services(ctx context.Context) (map[string]string, error) {
	ss, err := keystone.Services.List(ctx, l.sc, nil)
	if err != nil {
		return nil, keystone.Wrap(err, errList, "services")
	}
	names := make(map[string]string, len(ss))
	for _, s := range ss {
		names[s.ID] = s.Name
		if l.f.kind(kindService) && l.f.name(s.Name) {
			l.out = append(l.out, serviceObject(s))
		}
	}
	return names, nil
}

func (l *ksLister) endpoints(ctx context.Context, services map[string]string) error {
	if !l.f.kind(kindEndpoint) {
		return nil
	}
	es, err := keystone.Endpoints.List(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "endpoints")
	}
	for _, e := range es {
		if name := endpointName(services[e.ServiceID], e); l.f.name(name) {
			l.out = append(l.out, endpointObject(e, name))
		}
	}
	return nil
}

func regionObject(r keystone.Region) *Object {
	o := keystoneObject(kindRegion, "region", r.ID, r.ID, r.Marker)
	o.Describe = fmt.Sprintf("Keystone region %q", r.ID)
	o.Build = func(refs Refs) any {
		fp := v1alpha1.RegionParameters{ID: r.ID, Description: nonEmpty(r.Description)}
		fp.ParentRegionRef, fp.ParentRegionID = ref(refs, kindRegion, r.ParentRegionID)
		return fp
	}
	return o
}

func serviceObject(s keystone.Service) *Object {
	o := keystoneObject(kindService, "service", s.ID, s.Name, s.Marker)
	o.Build = func(Refs) any {
		return v1alpha1.ServiceParameters{Type: s.Type, Name: s.Name, Description: nonEmpty(s.Description), Enabled: &s.Enabled}
	}
	return o
}

// endpointName is what an endpoint's resource name is made from: its service's name (or ID),
// its interface and its region.
func endpointName(service string, e keystone.Endpoint) string {
	if service == "" {
		service = e.ServiceID
	}
	n := service + "-" + e.Interface
	if e.RegionID != "" {
		n += "-" + e.RegionID
	}
	return n
}

func endpointObject(e keystone.Endpoint, name string) *Object {
	o := keystoneObject(kindEndpoint, "endpoint", e.ID, name, e.Marker)
	o.Build = func(refs Refs) any {
		fp := v1alpha1.EndpointParameters{Interface: v1alpha1.EndpointInterface(e.Interface), URL: e.URL, Enabled: &e.Enabled}
		fp.ServiceRef, fp.ServiceID = ref(refs, kindService, e.ServiceID)
		fp.RegionRef, fp.RegionID = ref(refs, kindRegion, e.RegionID)
		return fp
	}
	return o
}
