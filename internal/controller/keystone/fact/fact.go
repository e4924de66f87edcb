// Package fact drives the Keystone kinds that are facts, not objects: a role assignment, a
// group membership, an implied-role rule. A fact has no ID, no fields and nowhere to keep a
// provenance marker. Its external name is therefore its key, which maps one to one onto its URL
// in the identity API: checked with HEAD, made with PUT, removed with DELETE. The marker lives
// on the managed resource (adoption.AnnotationMarker): a fact that exists without the resource
// having made or adopted it is AdoptionRequired under FailOnConflict, and deleting the resource
// removes only a fact it owns.
//
// Each kind says what is its own in a Kind (its key, its URL, what its spec names, its
// messages); Driver is the one adoption.Driver for all of them.
package fact

import (
	"context"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// A Fact is one fact, identified entirely by its key: two facts are the same when they are
// equal.
type Fact interface {
	comparable
	// Key renders the fact as its external name.
	Key() string
}

// A Kind is what one fact kind has of its own; the Driver does the rest.
type Kind[MR adoption.Managed, F Fact] struct {
	// Type names a fact of the kind in messages, e.g. "Keystone group membership".
	Type string
	// Parse reads an external name written by F's Key.
	Parse func(key string) (F, error)
	// URL is the fact's address in the identity API.
	URL func(sc keystone.API, f F) string
	// Desired is the fact the spec names, with its references resolved (see Resolved).
	Desired func(mg MR) (F, error)
	// Validate checks, right before a write, what the CRD checks at admission: a resource
	// stored before a rule existed never went through it.
	Validate func(mg MR) error
	// Record writes the observed fact, with its provenance, to status.atProvider.
	Record func(mg MR, f F, p identityv1alpha1.Provenance)

	// ErrCheck, ErrMake and ErrRemove wrap a failed HEAD, PUT and DELETE; each has one %s, the
	// fact's key.
	ErrCheck, ErrMake, ErrRemove string
	// ErrChanged refuses a spec that names another fact; its two %s are the key the spec names
	// and the key the resource manages.
	ErrChanged string

	// Shared, when set, reads the kind's facts through one shared list of their scope when
	// many resources check facts of that scope at about the same time.
	Shared *Shared[F]
}

// Shared says how a kind's facts are read through one list (see clients.SharedReads).
type Shared[F Fact] struct {
	// URL is the address of the list f is read in, filter included: one scope of the reads.
	URL func(sc keystone.API, f F) string
	// List reads every fact of f's list. A list cut short must be an error
	// (keystone.IsTruncated): a missing row is not a missing fact.
	List func(ctx context.Context, sc keystone.API, f F) ([]F, error)
	// Find lets a fresh list answer Find as well as Get. That is safe where Create checks again
	// with a HEAD before its PUT (it always does): a fact made by hand since the list is then
	// refused, not claimed.
	Find bool
}

// An ID is one of the IDs a fact joins: what it is ("prior role"), the spec field that sets it
// ("priorRoleId") and its value, "" while its reference or selector has not resolved.
type ID struct {
	What, Field, Value string
}

// Resolved returns nil when every ID is set, else errUnresolved (its two %s: what and field)
// for the first that is not.
func Resolved(errUnresolved string, ids ...ID) error {
	for _, id := range ids {
		if id.Value == "" {
			return errors.Errorf(errUnresolved, id.What, id.Field)
		}
	}
	return nil
}

// Deref is the value of an ID field of a spec, "" when unset.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// SplitPair reads a two-part key <first>/<second>: both set, and no '/' in the second (the
// IDs it joins never hold one). Anything else is errKey, whose one %q is the key.
func SplitPair(key, errKey string) (string, string, error) {
	first, second, ok := strings.Cut(key, "/")
	if !ok || first == "" || second == "" || strings.Contains(second, "/") {
		return "", "", errors.Errorf(errKey, key)
	}
	return first, second, nil
}
