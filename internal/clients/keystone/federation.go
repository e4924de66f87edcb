package keystone

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gophercloud/gophercloud/v2"
)

// Keystone's OS-FEDERATION API for what gophercloud v2 lacks: identity providers and protocols.
// Mappings are gophercloud's (openstack/identity/v3/federation). Errors are gophercloud's, so
// IsNotFound, IsConflict and gophercloud.ResponseCodeIs work on them.

// federationPath is the OS-FEDERATION API below the identity endpoint.
const federationPath = "OS-FEDERATION"

// An IdentityProvider is a Keystone federation identity provider as the API returns it.
type IdentityProvider struct {
	// ID is chosen by whoever creates the identity provider.
	ID string `json:"id"`
	// DomainID is the domain federated users are created in. It cannot change.
	DomainID string `json:"domain_id"`
	// Description is free text (null reads as "").
	Description string `json:"description"`
	// Enabled identity providers accept federated logins. Keystone's default is false.
	Enabled bool `json:"enabled"`
	// RemoteIDs are the identifiers the identity provider asserts (an OIDC issuer, a SAML
	// entityID). A remote ID belongs to at most one identity provider.
	RemoteIDs []string `json:"remote_ids"`
	// AuthorizationTTL is how long, in minutes, a federated user's group memberships last
	// after a login; nil means Keystone's [federation] default_authorization_ttl.
	AuthorizationTTL *int `json:"authorization_ttl"`
}

// IdentityProviderOpts is the body of an identity provider create (PUT) or update (PATCH).
// Unset fields are not sent: Keystone keeps (or defaults) them.
type IdentityProviderOpts struct {
	// DomainID is required in practice: without it Keystone creates a domain for the
	// identity provider, and that domain outlives it. An update cannot change it (400).
	DomainID         *string   `json:"domain_id,omitempty"`
	Description      *string   `json:"description,omitempty"`
	Enabled          *bool     `json:"enabled,omitempty"`
	RemoteIDs        *[]string `json:"remote_ids,omitempty"`
	AuthorizationTTL *int      `json:"authorization_ttl,omitempty"`
}

var identityProviders = Collection[IdentityProvider]{
	Path: federationPath + "/identity_providers", Singular: "identity_provider", Plural: "identity_providers",
}

// GetIdentityProvider reads one identity provider.
func GetIdentityProvider(ctx context.Context, sc API, id string) (IdentityProvider, error) {
	return identityProviders.Get(ctx, sc, url.PathEscape(id))
}

// ListIdentityProviders lists identity providers; Keystone filters by id and enabled.
func ListIdentityProviders(ctx context.Context, sc API, q url.Values) ([]IdentityProvider, error) {
	return identityProviders.List(ctx, sc, q)
}

// CreateIdentityProvider creates an identity provider under the given ID (PUT, 201). A second
// create of the same ID is a 409: updates are UpdateIdentityProvider.
func CreateIdentityProvider(ctx context.Context, sc API, id string, opts IdentityProviderOpts) (IdentityProvider, error) {
	return identityProviders.Put(ctx, sc, url.PathEscape(id), opts)
}

// UpdateIdentityProvider patches the fields set in opts and returns the identity provider.
func UpdateIdentityProvider(ctx context.Context, sc API, id string, opts IdentityProviderOpts) (IdentityProvider, error) {
	var out map[string]IdentityProvider
	_, err := sc.Patch(ctx, sc.ServiceURL(identityProviders.Path, url.PathEscape(id)), map[string]any{identityProviders.Singular: opts}, &out,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	return out[identityProviders.Singular], err
}

// DeleteIdentityProvider deletes an identity provider; Keystone deletes its protocols with it.
func DeleteIdentityProvider(ctx context.Context, sc API, id string) error {
	return identityProviders.Delete(ctx, sc, url.PathEscape(id))
}

// A Protocol links an identity provider to the mapping its assertions go through.
type Protocol struct {
	// ID is the protocol's name, for example "openid", "saml2" or "mapped".
	ID string `json:"id"`
	// IdentityProviderID is only returned by the list.
	IdentityProviderID string `json:"idp_id,omitempty"`
	// MappingID is the mapping applied to the identity provider's assertions.
	MappingID string `json:"mapping_id"`
	// RemoteIDAttribute is the WSGI environment key carrying the identity provider's remote ID.
	// GET of one protocol omits it; the list includes it (see ReadProtocol).
	RemoteIDAttribute string `json:"remote_id_attribute,omitempty"`
}

// ProtocolOpts is the body of a protocol create (PUT) or update (PATCH).
type ProtocolOpts struct {
	MappingID         string  `json:"mapping_id"`
	RemoteIDAttribute *string `json:"remote_id_attribute,omitempty"`
}

func protocols(idp string) Collection[Protocol] {
	return Collection[Protocol]{Path: federationPath + "/identity_providers/" + url.PathEscape(idp) + "/protocols", Singular: "protocol", Plural: "protocols"}
}

// GetProtocol reads one protocol as GET returns it, that is without remote_id_attribute.
func GetProtocol(ctx context.Context, sc API, idp, id string) (Protocol, error) {
	return protocols(idp).Get(ctx, sc, url.PathEscape(id))
}

// ListProtocols lists an identity provider's protocols, remote_id_attribute included. The list
// of an identity provider that does not exist is empty, not a 404.
func ListProtocols(ctx context.Context, sc API, idp string) ([]Protocol, error) {
	return protocols(idp).List(ctx, sc, nil)
}

// ReadProtocol reads one protocol completely, from the list, in one request. A protocol that
// is not listed (or whose identity provider does not exist) is a 404 error, as from GET.
func ReadProtocol(ctx context.Context, sc API, idp, id string) (Protocol, error) {
	all, err := ListProtocols(ctx, sc, idp)
	if err != nil {
		return Protocol{}, err
	}
	for _, p := range all {
		if p.ID == id {
			return p, nil
		}
	}
	return Protocol{}, gophercloud.ErrUnexpectedResponseCode{
		Method: http.MethodGet, URL: sc.ServiceURL(protocols(idp).Path, url.PathEscape(id)),
		Expected: []int{http.StatusOK}, Actual: http.StatusNotFound,
		Body: []byte(`{"error":{"code":404,"message":"protocol ` + id + ` of identity provider ` + idp + ` is not listed","title":"Not Found"}}`),
	}
}

// CreateProtocol creates a protocol of an identity provider (PUT, 201; a second create is 409).
// An unknown mapping is a 400.
func CreateProtocol(ctx context.Context, sc API, idp, id string, opts ProtocolOpts) (Protocol, error) {
	return protocols(idp).Put(ctx, sc, url.PathEscape(id), opts)
}

// UpdateProtocol patches a protocol and returns it (without remote_id_attribute, like GET).
func UpdateProtocol(ctx context.Context, sc API, idp, id string, opts ProtocolOpts) (Protocol, error) {
	c := protocols(idp)
	var out map[string]Protocol
	_, err := sc.Patch(ctx, sc.ServiceURL(c.Path, url.PathEscape(id)), map[string]any{c.Singular: opts}, &out,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	return out[c.Singular], err
}

// DeleteProtocol deletes a protocol.
func DeleteProtocol(ctx context.Context, sc API, idp, id string) error {
	return protocols(idp).Delete(ctx, sc, url.PathEscape(id))
}
