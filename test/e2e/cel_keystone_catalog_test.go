//go:build e2e

package e2e

import (
	"testing"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func celRegion(name string, fp ksv1alpha1.RegionParameters) *ksv1alpha1.Region {
	return newRegion(name, fp, func(r *ksv1alpha1.Region) {
		r.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func celService(name string, fp ksv1alpha1.ServiceParameters) *ksv1alpha1.Service {
	return newService(name, fp, func(s *ksv1alpha1.Service) {
		s.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func celEndpoint(name string, fp ksv1alpha1.EndpointParameters) *ksv1alpha1.Endpoint {
	return newEndpoint(name, fp, func(e *ksv1alpha1.Endpoint) {
		e.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func TestCELKeystoneCatalog(t *testing.T) {
	t.Parallel()
	ep := func(m func(*ksv1alpha1.EndpointParameters)) ksv1alpha1.EndpointParameters {
		fp := ksv1alpha1.EndpointParameters{ServiceID: ptr("s1"), Interface: "public", URL: "https://a"}
		m(&fp)
		return fp
	}
	t.Run("RegionOwnParent", func(t *testing.T) {
		rejected(t, celRegion("cel-region-self", ksv1alpha1.RegionParameters{ID: "r1", ParentRegionID: ptr("r1")}), "a region cannot be its own parent")
	})
	t.Run("RegionIDWithSlash", func(t *testing.T) {
		rejected(t, celRegion("cel-region-slash", ksv1alpha1.RegionParameters{ID: "a/b"}), "spec.forProvider.id")
	})
	t.Run("RegionIDDotDot", func(t *testing.T) {
		rejected(t, celRegion("cel-region-dotdot", ksv1alpha1.RegionParameters{ID: ".."}), "id must not be . or ..")
	})
	t.Run("RegionIDChanged", func(t *testing.T) {
		rejectedChange(t, celRegion("cel-region-move", ksv1alpha1.RegionParameters{ID: "r1"}), func(r *ksv1alpha1.Region) { r.Spec.ForProvider.ID = "r2" },
			"id cannot change: it is the region's identity in Keystone")
	})
	t.Run("RegionDescriptionControl", func(t *testing.T) {
		rejected(t, celRegion("cel-region-ctl", ksv1alpha1.RegionParameters{ID: "r1", Description: ptr("a\x1bb")}), "description must not contain control characters")
	})
	t.Run("ServiceNameControl", func(t *testing.T) {
		rejected(t, celService("cel-svc-ctl", ksv1alpha1.ServiceParameters{Type: "compute", Name: "a\nb"}), "name must not contain control characters")
	})
	t.Run("ServiceTypeControl", func(t *testing.T) {
		rejected(t, celService("cel-svc-type-ctl", ksv1alpha1.ServiceParameters{Type: "a\tb", Name: "n"}), "type must not contain control characters")
	})
	t.Run("EndpointNoService", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-nosvc", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.ServiceID = nil })),
			"an endpoint belongs to a service: set one of serviceId, serviceRef or serviceSelector")
	})
	t.Run("EndpointInterface", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-iface", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.Interface = "private" })), "spec.forProvider.interface")
	})
	t.Run("EndpointURLWithoutScheme", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-url", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.URL = "example.com" })), "spec.forProvider.url")
	})
	t.Run("EndpointURLWithSpace", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-url-space", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.URL = "https://a b" })), "url must not contain spaces or control characters")
	})
	t.Run("EndpointServiceID", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-svcid", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.ServiceID = ptr("a/b") })), "serviceId must be a Keystone service ID")
	})
	t.Run("EndpointRegionID", func(t *testing.T) {
		rejected(t, celEndpoint("cel-ep-regid", ep(func(fp *ksv1alpha1.EndpointParameters) { fp.RegionID = ptr("a b") })), "spec.forProvider.regionId")
	})
}
