// Package config reconciles ProviderConfigs: it counts their users (so one in use cannot be
// deleted) and reports whether the provider can authenticate with the endpoint.
package config

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/providerconfig"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const (
	reasonAuthenticated  xpv2.ConditionReason = "Authenticated"
	reasonCannotAuth     xpv2.ConditionReason = "CannotAuthenticate"
	eventCannotAuth                           = event.Reason("CannotAuthenticate")
	reasonIDRecorded     xpv2.ConditionReason = "Recorded"
	reasonIDChanged      xpv2.ConditionReason = "InstallationIDChanged"
	reasonCannotDeriveID xpv2.ConditionReason = "CannotDeriveInstallationID"
	recheckWhenHealthy                        = 10 * time.Minute
	recheckWhenUnhealthy                      = 30 * time.Second
	errGetPC                                  = "cannot get ProviderConfig"
	errUpdateStatus                           = "cannot update ProviderConfig status"
	checkTimeout                              = 30 * time.Second
)

// Setup adds the usage and authentication controllers of every ProviderConfig kind: the
// legacy ProviderConfig of identity.crossplane.io (used by cluster-scoped resources), and the
// ProviderConfig and ClusterProviderConfig of identity.m.crossplane.io (used by namespaced
// resources, whose usages are ProviderConfigUsages in the resource's namespace).
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	kinds := []struct {
		of        resource.ProviderConfigKinds
		obj       clients.Config
		usage     client.Object
		usageKind string
	}{
		{of: resource.ProviderConfigKinds{Config: identityv1alpha1.ProviderConfigGroupVersionKind,
			Usage: identityv1alpha1.ProviderConfigUsageGroupVersionKind, UsageList: identityv1alpha1.ProviderConfigUsageListGroupVersionKind},
			obj: &identityv1alpha1.ProviderConfig{}, usage: &identityv1alpha1.ProviderConfigUsage{}},
		{of: resource.ProviderConfigKinds{Config: nsidentityv1alpha1.ProviderConfigGroupVersionKind,
			Usage: nsidentityv1alpha1.ProviderConfigUsageGroupVersionKind, UsageList: nsidentityv1alpha1.ProviderConfigUsageListGroupVersionKind},
			obj: &nsidentityv1alpha1.ProviderConfig{}, usage: &nsidentityv1alpha1.ProviderConfigUsage{}, usageKind: nsidentityv1alpha1.ProviderConfigKind},
		{of: resource.ProviderConfigKinds{Config: nsidentityv1alpha1.ClusterProviderConfigGroupVersionKind,
			Usage: nsidentityv1alpha1.ProviderConfigUsageGroupVersionKind, UsageList: nsidentityv1alpha1.ProviderConfigUsageListGroupVersionKind},
			obj: &nsidentityv1alpha1.ClusterProviderConfig{}, usage: &nsidentityv1alpha1.ProviderConfigUsage{}, usageKind: nsidentityv1alpha1.ClusterProviderConfigKind},
	}
	for _, k := range kinds {
		if err := setupKind(mgr, o, k.of, k.obj, k.usage, k.usageKind); err != nil {
			return err
		}
	}
	return nil
}

// setupKind adds the usage and authentication controllers of one ProviderConfig kind.
func setupKind(mgr ctrl.Manager, o managedkind.Options, of resource.ProviderConfigKinds, obj clients.Config, usage client.Object, usageKind string) error {
	name := providerconfig.ControllerName(of.Config.GroupKind().String())
	// The count's updates that would change nothing are not sent (managedkind.SkipUnchanged).
	r := providerconfig.NewReconciler(skippingManager{Manager: mgr}, of,
		providerconfig.WithLogger(o.Logger.WithValues("controller", name)),
		providerconfig.WithRecorder(managedkind.Recorder(mgr, name)))
	if err := ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		For(obj, builder.WithPredicates(notOwnCount)).
		Watches(usage, batchedUsages{enqueue: resource.EnqueueRequestForProviderConfig{Kind: usageKind}, after: usageBatch}).
		Complete(ratelimiter.NewReconciler(name, r, o.GlobalRateLimiter)); err != nil {
		return err
	}

	hname := name + "/authentication"
	newConfig := func() clients.Config {
		c, _ := obj.DeepCopyObject().(clients.Config)
		return c
	}
	h := &health{kube: mgr.GetClient(), o: o, log: o.Logger.WithValues("controller", hname), newConfig: newConfig,
		record: managedkind.Recorder(mgr, hname)}
	return ctrl.NewControllerManagedBy(mgr).
		Named(hname).
		WithOptions(o.ForControllerRuntime()).
		// Only spec changes (and the periodic recheck) warrant a new authentication: the usage
		// controller rewrites status.users for every managed resource that starts using the
		// ProviderConfig, and each would otherwise cost Keystone a token.
		For(obj, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(ratelimiter.NewReconciler(hname, errors.WithSilentRequeueOnConflict(h), o.GlobalRateLimiter))
}

// health reports in an Authenticated condition whether the provider can authenticate with the
// ProviderConfig's endpoint, and the installation ID it writes into markers. Nothing secret is
// ever written: messages name Secrets by namespace, name and key only.
type health struct {
	kube      client.Client
	o         managedkind.Options
	log       logging.Logger
	record    event.Recorder
	newConfig func() clients.Config
}

func (h *health) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pc := h.newConfig()
	if err := h.kube.Get(ctx, req.NamespacedName, pc); err != nil {
		return reconcile.Result{}, errors.Wrap(client.IgnoreNotFound(err), errGetPC)
	}
	if pc.GetDeletionTimestamp() != nil {
		return reconcile.Result{}, nil
	}
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	err := h.check(cctx, pc)

	c := xpv2.Condition{Type: identityv1alpha1.ConditionTypeAuthenticated, Status: corev1.ConditionTrue,
		Reason: reasonAuthenticated, LastTransitionTime: metav1.Now(), ObservedGeneration: pc.GetGeneration()}
	after := recheckWhenHealthy
	if err != nil {
		c.Status, c.Reason, c.Message = corev1.ConditionFalse, reasonCannotAuth, err.Error()
		after = recheckWhenUnhealthy
		h.record.Event(pc, event.Warning(eventCannotAuth, err))
		h.log.Debug("Cannot authenticate", "providerconfig", pc.GetName(), "error", err)
	}
	pc.SetConditions(c, h.installation(ctx, pc))
	return reconcile.Result{RequeueAfter: after}, errors.Wrap(h.kube.Status().Update(ctx, pc), errUpdateStatus)
}

// installation records the installation ID in status the first time, and reports in a
// condition an ID that no longer matches the recorded one: the ProviderConfig's resources then
// stop (clients.Installations refuses the ID) rather than turn every object foreign.
func (h *health) installation(ctx context.Context, pc clients.Config) xpv2.Condition {
	c := xpv2.Condition{Type: identityv1alpha1.ConditionTypeInstallationID, Status: corev1.ConditionTrue,
		Reason: reasonIDRecorded, LastTransitionTime: metav1.Now(), ObservedGeneration: pc.GetGeneration()}
	id, err := h.o.Installations.ID(ctx, h.kube, clients.View(pc))
	if err != nil {
		c.Status, c.Reason, c.Message = corev1.ConditionFalse, reasonCannotDeriveID, err.Error()
		if pc.ProviderConfigStatus().InstallationID != "" {
			c.Reason = reasonIDChanged
		}
		h.record.Event(pc, event.Warning(event.Reason(c.Reason), err))
		return c
	}
	pc.ProviderConfigStatus().InstallationID = id
	return c
}

func (h *health) check(ctx context.Context, c clients.Config) error {
	pc, secrets := clients.View(c), clients.SecretReader(h.kube, c)
	switch clients.SystemOf(pc) {
	case clients.Keystone:
		return h.o.Keystone.Check(ctx, secrets, pc)
	default:
		return h.o.Authentik.Check(ctx, secrets, pc)
	}
}
