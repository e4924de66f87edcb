package outpost

import (
	"context"

	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// Connection detail keys.
const (
	// ConnToken is the key of the outpost's API token: what an outpost deployment needs as
	// AUTHENTIK_TOKEN.
	ConnToken = "token"
	// ConnTokenIdentifier is the token's identifier in authentik (ak-outpost-<id>-api).
	ConnTokenIdentifier = "token_identifier"
	// ConnTokenUUID is the token object's UUID: authentik makes a new token (a new UUID and
	// key) when the old one is deleted, which tells that the published key is stale.
	ConnTokenUUID = "token_uuid"
	// ConnURL is authentik's URL as the ProviderConfig names it (AUTHENTIK_HOST).
	ConnURL = "authentik_url"
)

const (
	errGetToken   = "cannot read the API token %q of authentik outpost %q"
	errViewKey    = "cannot read the key of the API token %q of authentik outpost %q for the connection Secret"
	errConnSecret = "cannot read the connection Secret of outpost %q"
)

// details are the connection details of an outpost: authentik's URL and the outpost's API
// token. The token's key is asked for (view_key, which authentik records as an event) only
// when the connection Secret does not already hold the key of the token that exists now, so
// an outpost in sync costs one read of the token and none of its key. authentik makes the
// token after the outpost, in the background: until it exists only the URL is published.
func (e *External) details(ctx context.Context, mg mr, o api.Outpost) (managed.ConnectionDetails, error) {
	if !shared.WritesConnectionSecret(mg) {
		return nil, nil
	}
	out := managed.ConnectionDetails{ConnURL: []byte(e.BaseURL)}
	id := o.TokenIdentifier
	if id == "" {
		return out, nil
	}
	t, resp, err := e.API.CoreAPI.CoreTokensRetrieve(ctx, id).Execute()
	if err != nil {
		err = authentik.Wrap(err, resp, errGetToken, id, o.Name)
		if authentik.IsNotFound(err) {
			return out, nil
		}
		return nil, err
	}
	out[ConnTokenIdentifier], out[ConnTokenUUID] = []byte(id), []byte(t.Pk)
	have, err := published(ctx, e.Client, mg)
	if err != nil {
		return nil, err
	}
	if string(have[ConnTokenUUID]) == t.Pk && string(have[ConnTokenIdentifier]) == id && len(have[ConnToken]) > 0 {
		out[ConnToken] = have[ConnToken]
		return out, nil
	}
	k, resp, err := e.API.CoreAPI.CoreTokensViewKeyRetrieve(ctx, id).Execute()
	if err != nil {
		err = authentik.Wrap(err, resp, errViewKey, id, o.Name)
		if authentik.IsNotFound(err) {
			return out, nil
		}
		return nil, err
	}
	out[ConnToken] = []byte(k.Key)
	return out, nil
}

// published reads the connection Secret as it is (nil while there is none).
func published(ctx context.Context, c shared.Client, mg mr) (map[string][]byte, error) {
	var key types.NamespacedName
	switch r := any(mg).(type) {
	case resource.LegacyManaged: //nolint:staticcheck // SA1019: the legacy cluster-scoped kinds are kept on purpose (ADR 0005)
		ref := r.GetWriteConnectionSecretToReference()
		key = types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	case resource.ModernManaged:
		key = types.NamespacedName{Namespace: mg.GetNamespace(), Name: r.GetWriteConnectionSecretToReference().Name}
	}
	s := &corev1.Secret{}
	if err := clients.ResourceSecrets(c.Kube, mg).Get(ctx, key, s); err != nil {
		if resource.IgnoreNotFound(err) == nil {
			return nil, nil
		}
		return nil, errors.Wrapf(err, errConnSecret, mg.GetName())
	}
	return s.Data, nil
}
