package keystone

import (
	"context"
	"net/url"
	"regexp"
	"strings"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// The service catalog: regions, services and endpoints. Keystone keeps every attribute it does
// not know of these objects in their "extra" column and returns it at the top level, as for
// projects (keystone/catalog/backends/sql.py: ModelDictMixinWithExtras), so they carry the
// marker in the same extra attribute, MarkerAttribute.
//
// gophercloud v2.16.0 has regions, services and endpoints packages, but its endpoint type and
// options carry no extra attributes (so no marker could be written or read), and its calls take
// a *gophercloud.ServiceClient rather than an API: the kinds use Collections over API like every
// other marked kind, which unit tests answer call by call and Shared reads from shared lists.

// A Region is a Keystone region. Its ID is chosen by whoever creates it; it has no name.
type Region struct {
	ID             string `json:"id,omitempty"`
	ParentRegionID string `json:"parent_region_id,omitempty"`
	Description    string `json:"description"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// A Service is a Keystone service. Keystone keeps neither its name nor its type unique.
type Service struct {
	ID          string `json:"id,omitempty"`
	Type        string `json:"type,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// An Endpoint is a Keystone endpoint. RegionID is empty for an endpoint in no region.
type Endpoint struct {
	ID        string `json:"id,omitempty"`
	ServiceID string `json:"service_id,omitempty"`
	Interface string `json:"interface,omitempty"`
	URL       string `json:"url,omitempty"`
	RegionID  string `json:"region_id,omitempty"`
	Enabled   bool   `json:"enabled"`

	// Marker is read leniently: a hand-set non-string value is no marker, not a decode error.
	Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
}

// The catalog's collections.
var (
	Regions   = Collection[Region]{Path: "regions", Singular: "region", Plural: "regions"}
	Services  = Collection[Service]{Path: "services", Singular: "service", Plural: "services"}
	Endpoints = Collection[Endpoint]{Path: "endpoints", Singular: "endpoint", Plural: "endpoints"}
)

// EndpointKey names an endpoint the way people tell endpoints apart: its interface, its URL and
// its region.
func EndpointKey(e Endpoint) string {
	k := e.Interface + " " + e.URL
	if e.RegionID != "" {
		k += " in region " + e.RegionID
	}
	return k
}

const (
	typeRegion      = "Keystone region"
	typeEndpoint    = "Keystone endpoint"
	typeEndpointFor = "Keystone endpoint-project association"
)

// EndpointsOfService lists a service's endpoints: Keystone deletes them with the service
// (Catalog.delete_service deletes every endpoint whose service_id is it).
func EndpointsOfService(ctx context.Context, sc API, serviceID string) ([]adoption.Dependent, error) {
	return endpointDependents(ctx, sc, url.Values{"service_id": {serviceID}})
}

// EndpointsInRegion lists the endpoints of a region. Keystone refuses to delete a region that
// it or one of its children has endpoints in (403, RegionDeletionError), so these take nothing
// with them; they are reported so that the resource says what is in the way, not only that
// Keystone refused.
func EndpointsInRegion(ctx context.Context, sc API, regionID string) ([]adoption.Dependent, error) {
	return endpointDependents(ctx, sc, url.Values{"region_id": {regionID}})
}

func endpointDependents(ctx context.Context, sc API, q url.Values) ([]adoption.Dependent, error) {
	es, err := Endpoints.List(ctx, sc, q)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(es)+1)
	for _, e := range es {
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: e.ID, Type: typeEndpoint, Key: EndpointKey(e), Marker: ParseMarker(e.Marker)},
			Kind:        v1alpha1.EndpointGroupKind.String(), ExternalName: e.ID,
		})
	}
	return withTruncation(out, err, typeEndpoint), nil
}

// ChildRegions lists the regions whose parent is the given region: Keystone deletes them, and
// theirs, with it (Catalog._delete_child_regions).
func ChildRegions(ctx context.Context, sc API, regionID string) ([]adoption.Dependent, error) {
	rs, err := Regions.List(ctx, sc, url.Values{"parent_region_id": {regionID}})
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(rs)+1)
	for _, r := range rs {
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: r.ID, Type: typeRegion, Key: r.ID, Marker: ParseMarker(r.Marker)},
			Kind:        v1alpha1.RegionGroupKind.String(), ExternalName: r.ID,
		})
	}
	return withTruncation(out, err, typeRegion), nil
}

// ProjectsOfEndpoint lists the projects an endpoint is associated with (the endpoint filter,
// OS-EP-FILTER): Keystone removes those associations with the endpoint. No kind of ours manages
// them, so each is in the way.
func ProjectsOfEndpoint(ctx context.Context, sc API, endpointID string) ([]adoption.Dependent, error) {
	ps, err := Collection[ref]{Path: "OS-EP-FILTER/endpoints/" + url.PathEscape(endpointID) + "/projects", Plural: "projects"}.List(ctx, sc, nil)
	if err != nil && !IsTruncated(err) {
		return nil, err
	}
	out := make([]adoption.Dependent, 0, len(ps)+1)
	for _, p := range ps {
		out = append(out, adoption.Dependent{Description: adoption.Description{
			ID: endpointID + "/" + p.ID, Type: typeEndpointFor, Key: "endpoint " + endpointID + " for project " + nameOr(p),
		}})
	}
	return withTruncation(out, err, typeEndpointFor), nil
}

var (
	regionID    = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	endpointURL = regexp.MustCompile(`^[a-zA-Z0-9+.-]+:.+`)
)

// RegionID is a region ID as the CRD admits it: letters, digits, '.', '-' and '_', at most 64
// (Keystone stores up to 255, but unified limits keep a region ID in 64), not . or .. (it is a
// segment of Keystone's URLs).
func RegionID(v string) string {
	if len(v) > 64 || !regionID.MatchString(v) || v == "." || v == ".." {
		return "is not a usable Keystone region ID: letters, digits, '.', '-' and '_' only, at most 64 characters, not . or .."
	}
	return ""
}

// URL is an endpoint URL: Keystone's rule (a scheme, a colon, something), at most 225
// characters, no spaces or control characters.
func URL(v string) string {
	if len(v) > 225 || !endpointURL.MatchString(v) || strings.ContainsAny(v, " ") || clients.HasControlChars(v) {
		return "is not an endpoint URL Keystone accepts: scheme:rest (for example https://compute.example.com:8774/v2.1), at most 225 characters, no spaces or control characters"
	}
	return ""
}

// Interface is an endpoint interface: public, internal or admin.
func Interface(v string) string {
	switch v {
	case "public", "internal", "admin":
		return ""
	}
	return "is not an endpoint interface: public, internal or admin"
}
