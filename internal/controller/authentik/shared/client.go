// Package shared holds what the authentik kinds share: the one client every driver takes
// (Client) and its Setup, and for the Application and provider kinds (OAuth2Provider,
// SAMLProvider, ProxyProvider) resolving names and slugs to primary keys, drift detection on
// authentik's wire format, and the one driver of the provider kinds (ProviderDriver). Errors
// are wrapped and recognised by internal/clients/authentik (Wrap, IsNotFound).
package shared

import (
	"context"
	"strings"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

// A Client is what a driver needs for one reconcile: the API client of the resource's
// ProviderConfig, a reader for Secrets the spec names, the installation ID and authentik's URL.
type Client struct {
	API *api.APIClient
	// Kube reads Secrets (the OAuth2 client secret, user passwords).
	Kube client.Reader
	// Installation is the installation ID this provider writes into markers.
	Installation string
	// BaseURL is authentik's URL without /api/v3, for connection details.
	BaseURL string
	// Reads are shared with the kind's other reconciles; nil shares nothing.
	Reads *Reads
}

// clientFor returns the Connector's ClientFor for authentik kinds.
func clientFor(o managedkind.Options) func(context.Context, client.Reader, *identityv1alpha1.ProviderConfig) (Client, error) {
	// One Reads per kind, made at setup: every reconcile of the kind shares it.
	reads := NewReads(o.SharedReads)
	return func(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (Client, error) {
		c, err := o.Authentik.Client(ctx, kube, pc)
		if err != nil {
			return Client{}, err
		}
		inst, err := o.Installations.ID(ctx, kube, pc)
		if err != nil {
			return Client{}, err
		}
		return Client{API: c, Kube: kube, Installation: inst, BaseURL: strings.TrimSuffix(pc.Spec.Authentik.URL, "/"), Reads: reads}, nil
	}
}

// Setup adds the controller of an authentik kind whose driver works over a Client.
func Setup[MR adoption.Managed, O any](mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj MR,
	newDriver func(Client) adoption.Driver[MR, O]) error {
	return managedkind.SetupKind(mgr, o, managedkind.Kind[MR, Client, O]{
		GVK: gvk, Object: obj, System: clients.Authentik, ClientFor: clientFor(o), NewDriver: newDriver,
	})
}
