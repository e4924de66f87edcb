// Package clients holds what every system's client needs: the ProviderConfig a managed resource
// uses, the Secrets it points at, and the installation ID written into provenance markers.
package clients

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// System names an identity system a ProviderConfig can describe.
type System string

// The systems.
const (
	Keystone  System = "Keystone"
	Authentik System = "authentik"
)

const (
	errNoPCRef      = "no providerConfigRef is set"
	errTrackUsage   = "cannot track ProviderConfig usage"
	errGetPC        = "cannot get ProviderConfig %q"
	errWrongSystem  = "ProviderConfig %q configures %s, but %s is a %s resource: reference a ProviderConfig with spec.%s"
	errGetSecret    = "cannot read Secret %s/%s"
	errNoSecretKey  = "Secret %s/%s has no key %q"
	errEmptySecret  = "Secret %s/%s key %q is empty: put the credential there"
	errKubeSystemNS = "cannot read the kube-system namespace to derive the installation ID; set spec.installationID on the ProviderConfig"
	errIDChanged    = "ProviderConfig %q would write installation ID %q into provenance markers, but its objects carry %q (status.installationID): they would all become foreign. Set spec.installationID to %q (or, when that is the kube-system namespace's UID, leave it unset); to start over with another ID, create a new ProviderConfig"
)

// SystemOf returns the system a ProviderConfig configures.
func SystemOf(pc *identityv1alpha1.ProviderConfig) System {
	if pc.Spec.Authentik != nil {
		return Authentik
	}
	return Keystone
}

// ProviderConfigFor records that mg uses its ProviderConfig and returns it, checking that it
// configures the system mg belongs to.
func ProviderConfigFor(ctx context.Context, kube client.Client, usage *resource.LegacyProviderConfigUsageTracker, mg resource.LegacyManaged, want System) (*identityv1alpha1.ProviderConfig, error) { //nolint:staticcheck // SA1019: the cluster-scoped kinds stay for the legacy model (ADR 0005)
	ref := mg.GetProviderConfigReference()
	if ref == nil || ref.Name == "" {
		return nil, errors.New(errNoPCRef)
	}
	if err := usage.Track(ctx, mg); err != nil {
		return nil, errors.Wrap(err, errTrackUsage)
	}
	pc := &identityv1alpha1.ProviderConfig{}
	if err := kube.Get(ctx, types.NamespacedName{Name: ref.Name}, pc); err != nil {
		return nil, errors.Wrapf(err, errGetPC, ref.Name)
	}
	if got := SystemOf(pc); got != want {
		kind := mg.GetObjectKind().GroupVersionKind().Kind
		if kind == "" {
			kind = "this resource"
		}
		return nil, errors.Errorf(errWrongSystem, pc.GetName(), got, kind, want, map[System]string{Keystone: "keystone", Authentik: "authentik"}[want])
	}
	return pc, nil
}

// SecretValue reads one key of a Secret, refusing an empty value: an empty password or token
// would only come back from the server as a failed authentication, naming no Secret.
func SecretValue(ctx context.Context, kube client.Reader, s identityv1alpha1.SecretKeySelector) ([]byte, error) {
	sec := &corev1.Secret{}
	if err := kube.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name}, sec); err != nil {
		return nil, errors.Wrapf(err, errGetSecret, s.Namespace, s.Name)
	}
	v, ok := sec.Data[s.Key]
	if !ok {
		return nil, errors.Errorf(errNoSecretKey, s.Namespace, s.Name, s.Key)
	}
	if len(v) == 0 {
		return nil, errors.Errorf(errEmptySecret, s.Namespace, s.Name, s.Key)
	}
	return v, nil
}

// Installations derives installation IDs. The default is the kube-system namespace's UID,
// read once per process: it never changes for the life of a cluster.
type Installations struct {
	mu        sync.Mutex
	clusterID string
}

// ID returns the installation ID of a ProviderConfig: spec.installationID, or the cluster's.
// Once status.installationID records the ID in use, a different one is an error: the CRD
// refuses the change, but a ProviderConfig stored before that rule (or a kube-system namespace
// recreated with another UID) would otherwise turn every object it created foreign.
func (i *Installations) ID(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (string, error) {
	id := pc.Spec.InstallationID
	if id == "" {
		var err error
		if id, err = i.cluster(ctx, kube); err != nil {
			return "", err
		}
	}
	if rec := pc.Status.InstallationID; rec != "" && rec != id {
		return "", errors.Errorf(errIDChanged, pc.GetName(), id, rec, rec)
	}
	return id, nil
}

// cluster returns the kube-system namespace's UID.
func (i *Installations) cluster(ctx context.Context, kube client.Reader) (string, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.clusterID == "" {
		ns := &corev1.Namespace{}
		if err := kube.Get(ctx, types.NamespacedName{Name: "kube-system"}, ns); err != nil {
			return "", errors.Wrap(err, errKubeSystemNS)
		}
		i.clusterID = string(ns.GetUID())
	}
	return i.clusterID, nil
}
