// Package keystone builds authenticated gophercloud clients for Keystone from ProviderConfigs,
// and holds the few identity API calls gophercloud lacks.
package keystone

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

const (
	errNotKeystone  = "ProviderConfig %q has no spec.keystone"
	errNewClient    = "cannot build a Keystone client for %s"
	errAuthenticate = "cannot authenticate to Keystone at %s"
	errIdentityV3   = "cannot find the identity v3 endpoint in Keystone's catalog (region %q, interface %q)"
)

// A Factory builds Keystone clients and caches them per set of credentials. A cached client
// keeps its token and re-authenticates only when Keystone rejects it, so a reconcile at steady
// state costs the one read it needs and no token request. A failed authentication is not
// retried before its backoff expires (see clients.Cache), so wrong credentials cost Keystone
// one token request per backoff period whatever the number of resources.
type Factory struct {
	// Transport, when set, carries every request (tests use it to count requests).
	Transport http.RoundTripper
	// Endpoints, when set, limits the requests in flight to each endpoint (shared with the
	// other system's factory: limits are per endpoint, not per factory).
	Endpoints *clients.Endpoints

	cache clients.Cache[*gophercloud.ServiceClient]
}

// Client returns an identity v3 client for the ProviderConfig.
func (f *Factory) Client(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (*gophercloud.ServiceClient, error) {
	cfg := pc.Spec.Keystone
	if cfg == nil {
		return nil, errors.Errorf(errNotKeystone, pc.GetName())
	}
	opts, err := authOptions(ctx, kube, cfg)
	if err != nil {
		return nil, err
	}
	hc, ca, err := clients.HTTPClient(ctx, kube, clients.HTTPOptions{TLS: cfg.TLS, Base: f.Transport, Endpoints: f.Endpoints})
	if err != nil {
		return nil, err
	}
	return f.cache.Get(cacheKey(cfg, opts, ca), func() (*gophercloud.ServiceClient, error) {
		return connect(ctx, cfg, opts, hc)
	})
}

// Check authenticates afresh, even when a client is cached: it tells whether the credentials
// work now (and keeps the new client). It shares the cache's backoff: while the credentials'
// last authentication failure is remembered, Check returns it without asking Keystone.
func (f *Factory) Check(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) error {
	cfg := pc.Spec.Keystone
	if cfg == nil {
		return errors.Errorf(errNotKeystone, pc.GetName())
	}
	opts, err := authOptions(ctx, kube, cfg)
	if err != nil {
		return err
	}
	hc, ca, err := clients.HTTPClient(ctx, kube, clients.HTTPOptions{TLS: cfg.TLS, Base: f.Transport, Endpoints: f.Endpoints})
	if err != nil {
		return err
	}
	_, err = f.cache.Refresh(cacheKey(cfg, opts, ca), func() (*gophercloud.ServiceClient, error) {
		return connect(ctx, cfg, opts, hc)
	})
	return err
}

// A UserLogin is a user's own login with their password, scoped to a project: what Keystone
// requires to create the user's application credentials (only the user may, with a token
// scoped to the credential's project).
type UserLogin struct {
	UserID, Password, ProjectID string
}

// UserClient returns an identity v3 client of the ProviderConfig's Keystone (its URL, region,
// interface and TLS settings) that authenticates as l says instead of with the ProviderConfig's
// credentials. It is cached like Client's, so a login costs one token request per password and
// project, and a failed one is not retried before its backoff expires.
func (f *Factory) UserClient(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig, l UserLogin) (*gophercloud.ServiceClient, error) {
	cfg := pc.Spec.Keystone
	if cfg == nil {
		return nil, errors.Errorf(errNotKeystone, pc.GetName())
	}
	opts := gophercloud.AuthOptions{IdentityEndpoint: cfg.AuthURL, AllowReauth: true, UserID: l.UserID, Password: l.Password,
		Scope: &gophercloud.AuthScope{ProjectID: l.ProjectID}}
	hc, ca, err := clients.HTTPClient(ctx, kube, clients.HTTPOptions{TLS: cfg.TLS, Base: f.Transport, Endpoints: f.Endpoints})
	if err != nil {
		return nil, err
	}
	return f.cache.Get(cacheKey(cfg, opts, ca), func() (*gophercloud.ServiceClient, error) {
		return connect(ctx, cfg, opts, hc)
	})
}

func connect(ctx context.Context, cfg *identityv1alpha1.KeystoneConfig, opts gophercloud.AuthOptions, hc http.Client) (*gophercloud.ServiceClient, error) {
	pc, err := openstack.NewClient(cfg.AuthURL)
	if err != nil {
		return nil, errors.Wrapf(err, errNewClient, cfg.AuthURL)
	}
	pc.HTTPClient = hc
	pc.UserAgent.Prepend("provider-identity")
	if err := openstack.Authenticate(ctx, pc, opts); err != nil {
		return nil, errors.Wrapf(err, errAuthenticate, cfg.AuthURL)
	}
	// A cached client re-authenticates when Keystone rejects its token (it expired, or the
	// password was changed in Keystone): with the cache's backoff too, so that a password
	// that stopped working is not tried again at every request.
	if reauth := pc.ReauthFunc; reauth != nil {
		r := &clients.Retrier{}
		pc.ReauthFunc = func(ctx context.Context) error {
			return r.Do(func() error { return errors.Wrapf(reauth(ctx), errAuthenticate, cfg.AuthURL) })
		}
	}
	eo := gophercloud.EndpointOpts{Region: cfg.Region, Availability: gophercloud.Availability(cfg.Interface)}
	if eo.Availability == "" {
		eo.Availability = gophercloud.AvailabilityPublic
	}
	sc, err := openstack.NewIdentityV3(pc, eo)
	if err != nil {
		return nil, errors.Wrapf(err, errIdentityV3, cfg.Region, eo.Availability)
	}
	return sc, nil
}

func authOptions(ctx context.Context, kube client.Reader, cfg *identityv1alpha1.KeystoneConfig) (gophercloud.AuthOptions, error) {
	o := gophercloud.AuthOptions{IdentityEndpoint: cfg.AuthURL, AllowReauth: true}
	switch {
	case cfg.Password != nil:
		p := cfg.Password
		pw, err := clients.SecretValue(ctx, kube, p.PasswordSecretRef)
		if err != nil {
			return o, err
		}
		o.Username, o.Password, o.DomainName = p.Username, string(pw), p.UserDomainName
		if o.DomainName == "" {
			o.DomainName = "Default"
		}
		o.Scope = scope(p.Scope)
	case cfg.ApplicationCredential != nil:
		a := cfg.ApplicationCredential
		s, err := clients.SecretValue(ctx, kube, a.SecretRef)
		if err != nil {
			return o, err
		}
		o.ApplicationCredentialID, o.ApplicationCredentialSecret = a.ID, string(s)
	}
	return o, nil
}

func scope(s identityv1alpha1.KeystoneScope) *gophercloud.AuthScope {
	switch {
	case s.ProjectName != nil:
		d := "Default"
		if s.ProjectDomainName != nil {
			d = *s.ProjectDomainName
		}
		return &gophercloud.AuthScope{ProjectName: *s.ProjectName, DomainName: d}
	case s.DomainName != nil:
		return &gophercloud.AuthScope{DomainName: *s.DomainName}
	case s.System != nil && *s.System:
		return &gophercloud.AuthScope{System: true}
	}
	return nil
}

// cacheKey identifies a client by everything that shapes it, secrets included (hashed), so a
// rotated password or CA builds a new client.
func cacheKey(cfg *identityv1alpha1.KeystoneConfig, o gophercloud.AuthOptions, ca []byte) string {
	h := sha256.New()
	for _, s := range []string{cfg.AuthURL, cfg.Region, cfg.Interface, o.UserID, o.Username, o.Password, o.DomainName,
		o.ApplicationCredentialID, o.ApplicationCredentialSecret, string(ca)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if o.Scope != nil {
		h.Write([]byte(o.Scope.ProjectName + "\x00" + o.Scope.DomainName + "\x00" + o.Scope.ProjectID))
		if o.Scope.System {
			h.Write([]byte("system"))
		}
	}
	if cfg.TLS != nil && cfg.TLS.InsecureSkipVerify {
		h.Write([]byte("insecure"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
