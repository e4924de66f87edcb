package token

import (
	"context"
	"slices"
	"strconv"
	"time"

	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errListUsers = "cannot look up authentik user %q (spec.forProvider.username of token %q)"
	errNoUser    = "authentik user %q, named in spec.forProvider.username of token %q, does not exist in authentik: create it or correct the name"
	errUserID    = "token %q has no user yet: set spec.forProvider.username or userId, or check that userRef or userSelector names a User that is Ready"
	errKeySecret = "cannot read the key of token %q from spec.forProvider.keySecretRef"
	errNoKey     = "Secret %s/%s has no key %q (or it is empty): put the token's key there"
)

// wanted is what the spec sets in authentik's wire format, and the key keySecretRef gives.
type wanted struct {
	fields shared.Fields
	// key is keySecretRef's key; empty without keySecretRef.
	key string
}

// desired resolves the spec: the user's pk (one list of users when given by username) and
// the key Secret.
func desired(ctx context.Context, c shared.Client, mg mr) (wanted, error) {
	fp := mg.Parameters()
	pk, err := userPK(ctx, c.API, mg)
	if err != nil {
		return wanted{}, err
	}
	intent := "api"
	if fp.Intent != nil {
		intent = *fp.Intent
	}
	f := shared.Fields{"intent": intent, "user": float64(pk)}
	f.Str("description", fp.Description)
	f.Bool("expiring", fp.Expiring)
	if fp.Expires != nil {
		f["expires"] = fp.Expires.UTC().Format(time.RFC3339)
	}
	w := wanted{fields: f}
	if ref := fp.KeySecretRef; ref != nil {
		key := clients.SecretKey(mg, ref.SecretReference)
		s := &corev1.Secret{}
		if err := clients.ResourceSecrets(c.Kube, mg).Get(ctx, key, s); err != nil {
			return wanted{}, errors.Wrapf(err, errKeySecret, fp.Identifier)
		}
		w.key = string(s.Data[ref.Key])
		if w.key == "" {
			return wanted{}, errors.Errorf(errNoKey, key.Namespace, key.Name, ref.Key)
		}
	}
	return w, nil
}

func userPK(ctx context.Context, c *api.APIClient, mg mr) (int32, error) {
	fp := mg.Parameters()
	if fp.Username == nil || *fp.Username == "" {
		if fp.UserID == nil || *fp.UserID == "" {
			return 0, errors.Errorf(errUserID, fp.Identifier)
		}
		n, err := strconv.ParseInt(*fp.UserID, 10, 32)
		if err != nil {
			return 0, errors.Errorf(errUserID, fp.Identifier)
		}
		return int32(n), nil
	}
	name := *fp.Username
	us, err := authentik.ListAll(ctx, func(page int32) ([]api.User, int32, error) {
		l, resp, err := c.CoreAPI.CoreUsersList(ctx).Username(name).IncludeGroups(false).IncludeRoles(false).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return 0, errors.Wrapf(err, errListUsers, name, fp.Identifier)
	}
	us = slices.DeleteFunc(us, func(u api.User) bool { return u.Username != name })
	if len(us) == 0 {
		return 0, errors.Errorf(errNoUser, name, fp.Identifier)
	}
	return us[0].Pk, nil
}

// compare compares the fields the spec sets; the description without its marker line, and
// expiry times as instants.
func (w wanted) compare(t api.Token) (shared.Comparison, error) {
	have, err := shared.ToFields(t)
	if err != nil {
		return shared.Comparison{}, err
	}
	rest, _, _, _ := provenance.ExtractFromText(t.GetDescription())
	have["description"] = rest
	return shared.Compare(w.fields, have, map[string]shared.Normalizer{"expires": instant}), nil
}

// instant is an RFC 3339 time in UTC to the second, so that authentik's microseconds and
// offsets compare with the spec's.
func instant(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return v
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}
