package token

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errIntent  = "token %q has spec.forProvider.intent %q: set api or app_password (authentik makes verification and recovery tokens itself)"
	errExpires = "token %q sets spec.forProvider.expires, which applies to app passwords only: authentik sets an API token's expiry itself; remove expires or set intent app_password"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	if fp.KeySecretRef != nil && !shared.WritesConnectionSecret(mg) {
		return errors.Errorf(errNeedsConn, fp.Identifier)
	}
	if i := fp.Intent; i != nil && *i != "api" && *i != "app_password" {
		return errors.Errorf(errIntent, fp.Identifier, *i)
	}
	if fp.Expires != nil && (fp.Intent == nil || *fp.Intent != "app_password") {
		return errors.Errorf(errExpires, fp.Identifier)
	}
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.identifier", fp.Identifier, authentik.Identifier),
		clients.FP("spec.forProvider.username", fp.Username, authentik.Name),
	)
}
