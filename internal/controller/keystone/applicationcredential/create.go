package applicationcredential

import (
	"context"
	"net/http"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errCreate    = "cannot create Keystone application credential %q for user %s on project %s"
	errLogin     = "cannot log in to Keystone as user %s on project %s with the password of Secret %s/%s key %s, to create its application credential %q (only the user may create their application credentials): check the password, and that the user has a global role on the project (Keystone leaves domain-specific roles out of tokens; they count only through the global roles they imply)"
	errNotSelf   = "the ProviderConfig's credentials are those of user %s on project %s, but application credential %q is for user %s on project %s, and Keystone lets only the user create their application credentials, with a token scoped to the project: set spec.forProvider.passwordSecretRef to a Secret holding the user's password"
	errForbidden = ". Keystone lets only the user create their application credentials, with a token scoped to the project: set spec.forProvider.passwordSecretRef to the user's password, or use a ProviderConfig whose credentials are the user's own, scoped to the project (a restricted application credential cannot create others)"
	errRoles     = ". The roles must be a subset of the user's roles on the project, and a role name must name a global role"
	errConflict  = ". The user already has an application credential named so: set the crossplane.io/external-name annotation to its ID, or choose another name"
	errBody      = "cannot build the create request of application credential %q"
)

// Create creates the credential as its user (see the package documentation) and publishes its
// secret, which Keystone returns only now.
func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	c, err := e.create(ctx, mg, m)
	if err != nil {
		return "", nil, err
	}
	return c.ID, e.details(c.ID, c.Secret), nil
}

func (e *external) create(ctx context.Context, mg mr, m provenance.Marker) (credential, error) {
	if err := validate(mg); err != nil {
		return credential{}, err
	}
	fp := mg.Parameters()
	uid, pid := deref(fp.UserID), deref(fp.ProjectID)
	switch {
	case uid == "":
		return credential{}, errors.New(errNoUser)
	case pid == "":
		return credential{}, errors.New(errNoProject)
	}
	api, err := e.creator(ctx, mg)
	if err != nil {
		return credential{}, err
	}
	body, err := createBody(mg, m)
	if err != nil {
		return credential{}, errors.Wrapf(err, errBody, fp.Name)
	}
	c, err := credentials(uid).Create(ctx, api, body)
	switch {
	case err == nil:
		c.UserID = uid
		return c, nil
	case gophercloud.ResponseCodeIs(err, http.StatusForbidden):
		return c, keystone.Wrap(err, errCreate+errForbidden, fp.Name, uid, pid)
	case gophercloud.ResponseCodeIs(err, http.StatusBadRequest):
		return c, keystone.Wrap(err, errCreate+errRoles, fp.Name, uid, pid)
	case keystone.IsConflict(err):
		return c, keystone.Wrap(err, errCreate+errConflict, fp.Name, uid, pid)
	}
	return c, keystone.Wrap(err, errCreate, fp.Name, uid, pid)
}

// creator is the client that creates the credential: the user's own login with the password
// the spec selects, or else the ProviderConfig's, which must be the user's (checked from its
// token when it can be, so that Keystone's bare 403 is not all the user reads).
func (e *external) creator(ctx context.Context, mg mr) (keystone.API, error) {
	fp := mg.Parameters()
	uid, pid := deref(fp.UserID), deref(fp.ProjectID)
	ref := fp.PasswordSecretRef
	if ref == nil {
		if u, p, ok := tokenOf(e.Admin); ok && (u != uid || p != pid) {
			return nil, errors.Errorf(errNotSelf, u, p, fp.Name, uid, pid)
		}
		return e.Admin, nil
	}
	sel := *ref
	sel.Namespace = clients.SecretKey(mg, ref.SecretReference).Namespace
	pw, err := clients.SecretValue(ctx, clients.ResourceSecrets(e.Kube, mg), sel)
	if err != nil {
		return nil, err
	}
	api, err := e.Login(ctx, keystone.UserLogin{UserID: uid, Password: string(pw), ProjectID: pid})
	if err != nil {
		return nil, errors.Wrapf(err, errLogin, uid, pid, sel.Namespace, sel.Name, sel.Key, fp.Name)
	}
	return api, nil
}

// tokenOf reads the user and project of a gophercloud client's token, without a request.
func tokenOf(api keystone.API) (user, project string, ok bool) {
	sc, isClient := api.(*gophercloud.ServiceClient)
	if !isClient || sc.ProviderClient == nil {
		return "", "", false
	}
	r, isToken := sc.GetAuthResult().(tokens.CreateResult)
	if !isToken {
		return "", "", false
	}
	u, err := r.ExtractUser()
	if err != nil || u == nil {
		return "", "", false
	}
	p, err := r.ExtractProject()
	if err != nil || p == nil {
		return u.ID, "", true
	}
	return u.ID, p.ID, true
}

// createBody is the create's application_credential object: the spec, with the marker as the
// description's last line.
func createBody(mg mr, m provenance.Marker) (map[string]any, error) {
	fp := mg.Parameters()
	o := applicationcredentials.CreateOpts{Name: fp.Name, Description: provenance.EmbedInText(deref(fp.Description), m)}
	if fp.Unrestricted != nil {
		o.Unrestricted = *fp.Unrestricted
	}
	for _, id := range fp.RoleIDs {
		o.Roles = append(o.Roles, applicationcredentials.Role{ID: id})
	}
	for _, n := range fp.RoleNames {
		o.Roles = append(o.Roles, applicationcredentials.Role{Name: n})
	}
	for _, r := range fp.AccessRules {
		o.AccessRules = append(o.AccessRules, applicationcredentials.AccessRule{Service: r.Service, Method: r.Method, Path: r.Path})
	}
	if fp.ExpiresAt != nil {
		t := fp.ExpiresAt.UTC()
		o.ExpiresAt = &t
	}
	b, err := o.ToApplicationCredentialCreateMap()
	if err != nil {
		return nil, err
	}
	inner, _ := b["application_credential"].(map[string]any)
	return inner, nil
}
