package importer

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

const kindApplicationCredential = "ApplicationCredential"

const (
	errListAppCreds = "cannot list the application credentials of Keystone user %q (ID %s)"
	// noteAppCredSecret says what import means for a credential whose secret Keystone returned
	// only to its create.
	noteAppCredSecret = "the secret is not imported (Keystone returns it only to the create that made the credential): the resource publishes none (its SecretPublished condition stays False, SecretUnknown), and whoever uses the credential keeps using its secret. Keystone cannot change an application credential: once adopted, any change of this spec replaces it (a new ID and a new secret, published to spec.writeConnectionSecretToRef), which needs spec.forProvider.passwordSecretRef (the user's password) unless the ProviderConfig's credentials are the user's own, scoped to the project"
)

// appCredentials lists the application credentials of the users in scope: Keystone lists
// them per user only (GET /v3/users/{id}/application_credentials), so one request per user,
// none unless the kind is listed, and none for a user whose credentials --name cannot match
// (a credential is named `<user name>-<credential name>`).
func (l *ksLister) appCredentials(ctx context.Context) error {
	if !l.f.kind(kindApplicationCredential) {
		return nil
	}
	prefix := literalPrefix(l.f.Name)
	for _, u := range l.usersInScope {
		if own := u.Name + "-"; !strings.HasPrefix(own, prefix) && !strings.HasPrefix(prefix, own) {
			continue // --name matches none of this user's credentials: no request for them
		}
		c := keystone.Collection[applicationcredentials.ApplicationCredential]{Path: "users/" + url.PathEscape(u.ID) + "/application_credentials",
			Singular: "application_credential", Plural: "application_credentials"}
		acs, err := c.List(ctx, l.sc, nil)
		if err != nil {
			return keystone.Wrap(err, errListAppCreds, u.Name, u.ID)
		}
		for _, ac := range acs {
			if o := l.appCredential(u, ac); l.f.name(o.Name) {
				l.out = append(l.out, o)
			}
		}
	}
	return nil
}

// appCredential makes one application credential, named `<user name>-<credential name>`. Its
// marker is its description's last line; one without (made by hand, or adopted, whose marker
// is then on its resource) is judged by its user's marker and the cluster's resources.
func (l *ksLister) appCredential(u keystone.User, ac applicationcredentials.ApplicationCredential) *Object {
	o, desc := limitObject(kindApplicationCredential, "application credential", ac.ID, u.Name+"-"+ac.Name, ac.Description)
	o.Describe = fmt.Sprintf("Keystone application credential %q of user %q (ID %s)", ac.Name, u.Name, ac.ID)
	if o.Marker == nil {
		o.Markerless = true
		o.Related = related(fmt.Sprintf("its user %q", u.Name), keystone.ParseMarker(u.Marker))
	}
	o.Notes = []string{noteAppCredSecret}
	roles := make([]string, 0, len(ac.Roles))
	for _, r := range ac.Roles {
		roles = append(roles, r.ID)
	}
	slices.Sort(roles)
	rules := make([]v1alpha1.ApplicationCredentialAccessRule, 0, len(ac.AccessRules))
	for _, r := range ac.AccessRules {
		rules = append(rules, v1alpha1.ApplicationCredentialAccessRule{Service: r.Service, Method: r.Method, Path: r.Path})
	}
	slices.SortFunc(rules, func(a, b v1alpha1.ApplicationCredentialAccessRule) int {
		return strings.Compare(a.Service+" "+a.Method+" "+a.Path, b.Service+" "+b.Method+" "+b.Path)
	})
	o.Build = func(r Refs) any {
		fp := v1alpha1.ApplicationCredentialParameters{Name: ac.Name, Description: desc, Unrestricted: new(ac.Unrestricted)}
		fp.UserRef, fp.UserID = ref(r, kindUser, u.ID)
		fp.ProjectRef, fp.ProjectID = ref(r, kindProject, ac.ProjectID)
		fp.RoleIDs, fp.RoleRefs = idsOrRefs(r, kindRole, roles)
		if !ac.ExpiresAt.IsZero() {
			// The spec holds seconds, which is what the driver compares.
			t := metav1.NewTime(ac.ExpiresAt.UTC().Truncate(time.Second))
			fp.ExpiresAt = &t
		}
		if len(rules) > 0 {
			fp.AccessRules = rules
		}
		return fp
	}
	return o
}

// idsOrRefs returns references to the resources that stand for the objects of kind with the
// IDs, or the IDs when any of them has none: resolved references replace the list; nil for
// none.
func idsOrRefs(r Refs, kind string, ids []string) ([]string, []xpv2.Reference) {
	if len(ids) == 0 {
		return nil, nil
	}
	refs := make([]xpv2.Reference, 0, len(ids))
	for _, id := range ids {
		n, ok := r.Name(kind, id)
		if !ok {
			return ids, nil
		}
		refs = append(refs, xpv2.Reference{Name: n})
	}
	slices.SortFunc(refs, func(a, b xpv2.Reference) int { return strings.Compare(a.Name, b.Name) })
	return nil, refs
}

// literalPrefix is what every name a shell pattern matches starts with: the pattern up to its
// first special character.
func literalPrefix(pattern string) string {
	if i := strings.IndexAny(pattern, `*?[\`); i >= 0 {
		return pattern[:i]
	}
	return pattern
}
