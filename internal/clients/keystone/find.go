package keystone

import (
	"context"
	"net/url"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
)

// A NameInDomain is the natural key of a project, group, user or role: its name, unique within
// its domain (DomainID "" for a global role).
type NameInDomain struct {
	Name     string
	DomainID string
}

// FindInDomain lists the objects of c named key.Name in domain key.DomainID (every domain's
// global objects when it is ""). Keystone filters server-side; only exact matches are kept,
// in case a backend compares loosely, so a lookup never binds another object. keyOf returns an
// object's key.
func FindInDomain[T any](ctx context.Context, sc API, c Collection[T], key NameInDomain, keyOf func(T) NameInDomain) ([]T, error) {
	q := url.Values{"name": {key.Name}}
	if key.DomainID != "" {
		q.Set("domain_id", key.DomainID)
	}
	all, err := c.List(ctx, sc, q)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(o T) bool { return keyOf(o) != key }), nil
}

// Unresolved is Find's answer for a resource whose natural key is not known because a
// reference (its domain, a user, a role...) is not resolved: err, or nothing for a resource
// being deleted. Such a resource resolves no references, its domain may already be gone, and
// an object it cannot name it never made: there is nothing of it to delete.
func Unresolved[T any](mg metav1.Object, err error) ([]T, error) {
	if meta.WasDeleted(mg) {
		return nil, nil
	}
	return nil, err
}
