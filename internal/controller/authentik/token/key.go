package token

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errConnSecret = "cannot read the connection Secret of token %q"
	errViewKey    = "cannot read the key of authentik token %q for the connection Secret"
	errSetKey     = "cannot set the key of authentik token %q from spec.forProvider.keySecretRef"
	errNeedsConn  = "token %q sets spec.forProvider.keySecretRef without writeConnectionSecretToRef: add writeConnectionSecretToRef (the key is compared with the one published there)"
)

// object completes a token read from authentik with its connection details. The key is
// taken from the connection Secret when that holds it already; authentik is asked for it
// (view_key, recorded there as a secret view) only when the Secret lacks it or, with
// keySecretRef, holds another key than the Secret the spec names.
func (e *external) object(ctx context.Context, mg mr, t api.Token) (Object, error) {
	if !shared.WritesConnectionSecret(mg) || !e.resolved() {
		// Without a spec it can be compared with, nothing is published: Observe reports why.
		return Object{Token: t}, nil
	}
	have, err := shared.PublishedSecret(ctx, e.c.Kube, mg)
	if err != nil {
		return Object{}, errors.Wrapf(err, errConnSecret, t.Identifier)
	}
	published := string(have[ConnToken])
	if published != "" && (e.want.key == "" || published == e.want.key) {
		return Object{Token: t, Details: e.details(t, published)}, nil
	}
	current, err := e.viewKey(ctx, t.Identifier)
	if err != nil {
		return Object{}, err
	}
	return Object{Token: t, Details: e.details(t, current), KeyDiffers: e.want.key != "" && current != e.want.key}, nil
}

// created returns the connection details of a token just created: keySecretRef's key, or
// authentik's (one view_key) when the resource publishes a connection Secret.
func (e *external) created(ctx context.Context, mg mr, t api.Token) (managed.ConnectionDetails, error) {
	if !shared.WritesConnectionSecret(mg) {
		return nil, nil
	}
	if e.want.key != "" {
		return e.details(t, e.want.key), nil
	}
	key, err := e.viewKey(ctx, t.Identifier)
	if err != nil {
		return nil, err
	}
	return e.details(t, key), nil
}

func (e *external) details(t api.Token, key string) managed.ConnectionDetails {
	return managed.ConnectionDetails{
		ConnToken: []byte(key), ConnIdentifier: []byte(t.Identifier), ConnUsername: []byte(t.UserObj.Username), ConnURL: []byte(e.c.BaseURL),
	}
}

func (e *external) viewKey(ctx context.Context, identifier string) (string, error) {
	v, resp, err := e.c.API.CoreAPI.CoreTokensViewKeyRetrieve(ctx, identifier).Execute()
	if err != nil {
		return "", authentik.Wrap(err, resp, errViewKey, identifier)
	}
	return v.Key, nil
}

func (e *external) setKey(ctx context.Context, identifier string) error {
	resp, err := e.c.API.CoreAPI.CoreTokensSetKeyCreate(ctx, identifier).TokenSetKeyRequest(*api.NewTokenSetKeyRequest(e.want.key)).Execute()
	return authentik.Wrap(err, resp, errSetKey, identifier)
}

// resolved tells whether the spec was resolved (the user and the key Secret read).
func (e *external) resolved() bool { return e.wantErr == nil }
