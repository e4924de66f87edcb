// Package token manages authentik API tokens and app passwords. The token's key is published
// only to the connection Secret: it is read from authentik (view_key, which authentik records
// as a secret view) only when that Secret does not hold it yet, and never appears in status,
// events, conditions, diffs or logs.
package token

import (
	"context"
	"maps"
	"strconv"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	typeName = "authentik token"

	errGet    = "cannot read authentik token %q"
	errCreate = "cannot create authentik token %q"
	errUpdate = "cannot update authentik token %q"
	errDelete = "cannot delete authentik token %q"
)

// Connection detail keys.
const (
	ConnToken      = "token"
	ConnIdentifier = "identifier"
	ConnUsername   = "username"
	ConnURL        = "url"
)

// mr is a Token of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.TokenParameters
	Observation() *v1alpha1.TokenObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Token kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.TokenGroupVersionKind, Obj: &clusterv1alpha1.Token{}},
	{GVK: v1alpha1.TokenGroupVersionKind, Obj: &v1alpha1.Token{}},
}

// Setup adds the controllers that reconcile Token managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Token CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, Object] { return &external{c: c} }

// An Object is a token as authentik returns it, with what the connection Secret gets and
// whether authentik's key is the one keySecretRef gives.
type Object struct {
	Token   api.Token
	Details managed.ConnectionDetails
	// KeyDiffers is true when keySecretRef's key is not authentik's key.
	KeyDiffers bool
}

// external drives authentik tokens for the adoption engine. It lives for one reconcile: the
// user and the key Secret are read once, when the token is read, so that Observe compares
// without I/O.
type external struct {
	c shared.Client

	prepared bool
	want     wanted
	wantErr  error
}

// Get reads the token with the identifier (the external name) and its connection details.
func (e *external) Get(ctx context.Context, mg mr, id string) (Object, error) {
	t, resp, err := e.c.API.CoreAPI.CoreTokensRetrieve(ctx, id).Execute()
	if err != nil {
		return Object{}, authentik.Wrap(err, resp, errGet, id)
	}
	e.prepare(ctx, mg)
	return e.object(ctx, mg, *t)
}

// Find reads the token by its identifier, the natural key: unique in authentik, and the name
// the API addresses tokens by.
func (e *external) Find(ctx context.Context, mg mr) ([]Object, error) {
	o, err := e.Get(ctx, mg, mg.Parameters().Identifier)
	if authentik.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if o.Token.Identifier != mg.Parameters().Identifier {
		return nil, nil
	}
	return []Object{o}, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe reads the marker from the description's last line.
func (e *external) Describe(o Object) adoption.Description {
	d := adoption.Description{ID: o.Token.Identifier, Type: typeName, Key: o.Token.Identifier}
	if _, m, found, err := provenance.ExtractFromText(o.Token.GetDescription()); found && err == nil {
		d.Marker = &m
	}
	return d
}

// Observe records the token and compares the fields the spec sets and, with keySecretRef,
// whether authentik holds that key (the diff never shows a key).
func (e *external) Observe(mg mr, o Object, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o.Token, p)
	if e.wantErr != nil {
		return adoption.Observation{Diff: e.wantErr.Error(), ConnectionDetails: o.Details}
	}
	c, err := e.want.compare(o.Token)
	if err != nil {
		return adoption.Observation{Diff: err.Error(), ConnectionDetails: o.Details}
	}
	diff := c.Diff
	if o.KeyDiffers {
		diff += "key: authentik's key is not the one in spec.forProvider.keySecretRef"
	}
	return adoption.Observation{UpToDate: c.UpToDate() && !o.KeyDiffers, Diff: diff, ConnectionDetails: o.Details}
}

// Create creates the token with the marker below its description, sets the key from
// keySecretRef when there is one, and returns the connection details.
func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	fp := mg.Parameters()
	f := maps.Clone(e.want.fields)
	f["identifier"] = fp.Identifier
	f["description"] = provenance.EmbedInText(deref(fp.Description), m)
	req, err := shared.Decode[api.TokenRequest](f)
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, fp.Identifier)
	}
	t, resp, err := e.c.API.CoreAPI.CoreTokensCreate(ctx).TokenRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Identifier)
	}
	if e.want.key != "" {
		if err := e.setKey(ctx, t.Identifier); err != nil {
			return t.Identifier, nil, err
		}
	}
	d, err := e.created(ctx, mg, *t)
	return t.Identifier, d, err
}

// Update PATCHes the managed fields that differ, and the description when its marker is not
// this resource's (an adoption). authentik's serializer gives a request without user the
// requesting user and one without intent the api intent, so every PATCH carries both. A key
// that differs from keySecretRef's is set with set_key alone.
func (e *external) Update(ctx context.Context, mg mr, o Object, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	t := o.Token
	c, err := e.want.compare(t)
	if err != nil {
		return nil, err
	}
	patch := c.Changed
	rest, have, found, _ := provenance.ExtractFromText(t.GetDescription())
	if _, ok := patch["description"]; ok || !found || have != m {
		text := rest
		if d := mg.Parameters().Description; d != nil {
			text = *d
		}
		patch["description"] = provenance.EmbedInText(text, m)
	}
	if len(patch) > 0 {
		patch["user"], patch["intent"] = e.want.fields["user"], e.want.fields["intent"]
		req, err := shared.Decode[api.PatchedTokenRequest](patch)
		if err != nil {
			return nil, errors.Wrapf(err, errUpdate, t.Identifier)
		}
		updated, resp, err := e.c.API.CoreAPI.CoreTokensPartialUpdate(ctx, t.Identifier).PatchedTokenRequest(req).Execute()
		if err != nil {
			return nil, authentik.Wrap(err, resp, errUpdate, t.Identifier)
		}
		t = *updated
		*mg.Observation() = observation(t, mg.Observation().Provenance)
	}
	if !o.KeyDiffers {
		return o.Details, nil
	}
	if err := e.setKey(ctx, t.Identifier); err != nil {
		return nil, err
	}
	return e.details(t, e.want.key), nil
}

// Delete deletes the token. Nothing in authentik refers to a token, so it takes nothing with
// it; whoever uses the key loses access.
func (e *external) Delete(ctx context.Context, _ mr, o Object) error {
	resp, err := e.c.API.CoreAPI.CoreTokensDestroy(ctx, o.Token.Identifier).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.Token.Identifier))
}

// prepare resolves the spec once per reconcile: the user's pk and the key Secret.
func (e *external) prepare(ctx context.Context, mg mr) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = desired(ctx, e.c, mg)
}

func observation(t api.Token, p identityv1alpha1.Provenance) v1alpha1.TokenObservation {
	o := v1alpha1.TokenObservation{
		ID: t.Pk, Identifier: t.Identifier, Intent: string(t.GetIntent()), Username: t.UserObj.Username,
		Expiring: t.GetExpiring(), Provenance: p,
	}
	if t.User != nil {
		o.UserID = strconv.Itoa(int(*t.User))
	}
	if x := t.Expires.Get(); x != nil {
		o.Expires = x.UTC().Format("2006-01-02T15:04:05Z")
	}
	return o
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
