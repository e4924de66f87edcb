package keystone

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A RegisteredLimit is a Keystone registered limit (/v3/registered_limits): the default limit of
// a resource of a service, optionally in one region. Keystone keeps no attribute it does not
// know (its schema refuses them), so a marker lives in the description.
type RegisteredLimit struct {
	ID           string  `json:"id,omitempty"`
	ServiceID    string  `json:"service_id"`
	RegionID     *string `json:"region_id"`
	ResourceName string  `json:"resource_name"`
	DefaultLimit int64   `json:"default_limit"`
	Description  *string `json:"description"`
}

// A Limit is a Keystone project or domain limit (/v3/limits): a resource limit overriding the
// registered limit of the same service, region and resource for one project or domain.
type Limit struct {
	ID            string  `json:"id,omitempty"`
	ProjectID     *string `json:"project_id"`
	DomainID      *string `json:"domain_id"`
	ServiceID     string  `json:"service_id"`
	RegionID      *string `json:"region_id"`
	ResourceName  string  `json:"resource_name"`
	ResourceLimit int64   `json:"resource_limit"`
	Description   *string `json:"description"`
}

// The unified-limit collections.
var (
	RegisteredLimits = Collection[RegisteredLimit]{Path: "registered_limits", Singular: "registered_limit", Plural: "registered_limits"}
	Limits           = Collection[Limit]{Path: "limits", Singular: "limit", Plural: "limits"}
)

const errCreatedNone = "Keystone answered the create of one %s with %d objects"

// CreateListed creates one object through a collection whose POST takes a list (Keystone's
// unified limits: {"registered_limits": [...]}) and returns it as Keystone stored it.
func (c Collection[T]) CreateListed(ctx context.Context, sc API, body any) (T, error) {
	var out map[string][]T
	var zero T
	_, err := sc.Post(ctx, sc.ServiceURL(c.Path), map[string]any{c.Plural: []any{body}}, &out, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}})
	if err != nil {
		return zero, err
	}
	if got := out[c.Plural]; len(got) != 1 {
		return zero, errors.Errorf(errCreatedNone, c.Singular, len(got))
	}
	return out[c.Plural][0], nil
}

// CreateListed is Create for a collection whose POST takes a list.
func (s Shared[T]) CreateListed(ctx context.Context, sc API, scope url.Values, body any) (T, error) {
	v, err := s.Collection.CreateListed(ctx, sc, body)
	s.created(sc, scope, v, err)
	return v, err
}

// FindBy looks up the objects of scope that match, from a shared list of the scope when one
// answers, else from Keystone's list filtered by q. Keystone refuses a second registered limit or
// limit with the same key (409), so a lookup that missed an object made by hand within the
// list's freshness makes the create fail with a conflict, not make a twin.
func (s Shared[T]) FindBy(ctx context.Context, sc API, scope url.Values, key string, match func(T) bool, q url.Values) ([]T, error) {
	if k, ok := s.scope(sc, scope); ok {
		if found, ok := s.reads.Match(ctx, k, key, match, s.source(sc, scope, "")); ok {
			return found, nil
		}
	}
	all, err := s.List(ctx, sc, q)
	if err != nil {
		return nil, err
	}
	var found []T
	for _, v := range all {
		if match(v) {
			found = append(found, v)
		}
	}
	return found, nil
}
