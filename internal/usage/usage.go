// Package usage orders deletions between managed resources that depend on each other, with
// the mechanism crossplane-runtime already honours: a managed resource that carries finalizers
// besides its own does not delete its external object until they are gone ("Delay external
// deletion until all finalizers have been removed"). A using resource (a Protocol, a
// DomainConfig) puts a finalizer naming itself on each resource it uses (its IdentityProvider and
// Mapping, its Domain) before it creates anything, and takes it off once its own external object
// is gone. So `kubectl delete` of all of them, in any order, deletes the users first in Keystone
// and the used ones after, and deleting only a used resource waits for its users.
package usage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// Prefix starts the finalizers this package puts on used resources.
const Prefix = "in-use.identity.crossplane.io/"

const (
	errList    = "cannot list %s to record which of them %s uses"
	errMark    = "cannot mark %s as used by %s"
	errRelease = "cannot release %s from %s"
	// maxNameLen is the longest name part of a qualified name (the part after the slash).
	maxNameLen = 63
	// attempts bounds the optimistic-concurrency retries of one finalizer change.
	attempts = 5
)

// FinalizerName is the finalizer a resource of kind `kind` named `name` puts on the resources
// it uses, for example in-use.identity.crossplane.io/protocol.openid. Long names are shortened
// with a hash, keeping the finalizer a valid qualified name.
func FinalizerName(kind, name string) string {
	n := strings.ToLower(kind) + "." + name
	if len(n) > maxNameLen {
		sum := sha256.Sum256([]byte(name))
		n = n[:maxNameLen-17] + "." + hex.EncodeToString(sum[:])[:16]
	}
	return Prefix + n
}

// A Target is one kind of resource a using kind may depend on.
type Target[MR resource.Managed] struct {
	// NewList returns an empty list of the used kind, for example &v1alpha1.DomainList{}.
	NewList func() client.ObjectList
	// Used returns which resource of that kind mg uses: by name when mg references it, else by
	// external name (the ID mg points at). Both empty: none.
	Used func(mg MR) (name, externalName string)
}

// A Finalizer is the resource.Finalizer of a using kind. AddFinalizer adds the resource's own
// finalizer, then marks the resources it uses now and releases any it no longer uses;
// RemoveFinalizer (called once the external object is gone, or for deletionPolicy Orphan)
// releases every resource it marked, then removes its own finalizer.
type Finalizer[MR resource.Managed] struct {
	// Kube writes the used resources; it may read from a cache.
	Kube client.Client
	// Reader reads a used resource afresh after a write conflict.
	Reader client.Reader
	// Own is the resource's own finalizer, usually the managed reconciler's default.
	Own resource.Finalizer
	// Kind of the using resources, for the finalizer name.
	Kind string
	// Targets are the kinds this kind may use.
	Targets []Target[MR]
}

// AddFinalizer implements resource.Finalizer.
func (f *Finalizer[MR]) AddFinalizer(ctx context.Context, obj resource.Object) error {
	if err := f.Own.AddFinalizer(ctx, obj); err != nil {
		return err
	}
	mg, ok := obj.(MR)
	if !ok {
		return nil
	}
	fin := FinalizerName(f.Kind, mg.GetName())
	for _, t := range f.Targets {
		name, ext := t.Used(mg)
		err := f.each(ctx, t, mg.GetNamespace(), func(o client.Object) bool {
			uses := (name != "" && o.GetName() == name) || (name == "" && ext != "" && meta.GetExternalName(o) == ext)
			has := controllerutil.ContainsFinalizer(o, fin)
			switch {
			case uses && !has && o.GetDeletionTimestamp() == nil:
				// A resource being deleted takes no new finalizers: it is going anyway.
				controllerutil.AddFinalizer(o, fin)
				return true
			case !uses && has:
				release(o, fin)
				return true
			}
			return false
		})
		if err != nil {
			return errors.Wrapf(err, errMark, kindOf(t), label(mg))
		}
	}
	return nil
}

// RemoveFinalizer implements resource.Finalizer.
func (f *Finalizer[MR]) RemoveFinalizer(ctx context.Context, obj resource.Object) error {
	fin := FinalizerName(f.Kind, obj.GetName())
	for _, t := range f.Targets {
		err := f.each(ctx, t, obj.GetNamespace(), func(o client.Object) bool {
			if !controllerutil.ContainsFinalizer(o, fin) {
				return false
			}
			release(o, fin)
			return true
		})
		if err != nil {
			return errors.Wrapf(err, errRelease, kindOf(t), label(obj))
		}
	}
	return f.Own.RemoveFinalizer(ctx, obj)
}

// AnnotationReleased is set, on a used resource that is being deleted, to the finalizer last
// released from it. Finalizer changes alone do not wake a managed resource's controller (its
// event filter passes only spec, label and annotation changes), so without it the used resource
// would wait for its next retry, up to a minute later, to delete its external object.
const AnnotationReleased = "identity.crossplane.io/usage-released"

func release(o client.Object, fin string) {
	controllerutil.RemoveFinalizer(o, fin)
	if o.GetDeletionTimestamp() != nil {
		meta.AddAnnotations(o, map[string]string{AnnotationReleased: fin})
	}
}

// each applies change to every resource of the target's kind in namespace (the using
// resource's: a namespaced resource uses resources of its own namespace only; "" for a
// cluster-scoped one, whose targets are cluster-scoped) and writes those it changed, retrying
// on write conflicts with a fresh read.
func (f *Finalizer[MR]) each(ctx context.Context, t Target[MR], namespace string, change func(client.Object) bool) error {
	l := t.NewList()
	if err := f.Kube.List(ctx, l, client.InNamespace(namespace)); err != nil {
		return errors.Wrapf(err, errList, kindOf(t), f.Kind)
	}
	items, err := apimeta.ExtractList(l)
	if err != nil {
		return err
	}
	for _, it := range items {
		o, ok := it.(client.Object)
		if !ok {
			continue
		}
		if err := f.write(ctx, o, change); err != nil {
			return err
		}
	}
	return nil
}

func (f *Finalizer[MR]) write(ctx context.Context, o client.Object, change func(client.Object) bool) error {
	for i := 0; ; i++ {
		if !change(o) {
			return nil
		}
		err := f.Kube.Update(ctx, o)
		if err == nil || kerrors.IsNotFound(err) {
			return nil
		}
		if !kerrors.IsConflict(err) || i == attempts-1 {
			return err
		}
		if err := f.Reader.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
			return client.IgnoreNotFound(err)
		}
	}
}

// label names a using resource in messages: namespace/name when it is namespaced.
func label(o client.Object) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName()
	}
	return o.GetName()
}

// RefName is the name a reference points at; "" for no reference.
func RefName(r *xpv2.Reference) string {
	if r == nil {
		return ""
	}
	return r.Name
}

func kindOf[MR resource.Managed](t Target[MR]) string {
	s := strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", t.NewList()), "*"), "List")
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s + "s"
}
