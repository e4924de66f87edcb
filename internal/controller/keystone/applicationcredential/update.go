package applicationcredential

import (
	"context"
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errMove          = "Keystone application credential %q (ID %s) is for project %s, but spec.forProvider.projectId is %s: an application credential cannot move; restore projectId, or create a new ApplicationCredential"
	errReplaceDelete = "cannot replace Keystone application credential %q (ID %s): deleting the old one failed"
	errReplaceCreate = "replacing Keystone application credential %q: the old one (ID %s) is deleted, but creating the new one failed; the next reconcile creates it"
	errPersistName   = "replaced Keystone application credential %q (old ID %s, new ID %s), but cannot record the new ID as the external name; the next reconcile finds it by name"

	msgReplaced = "Replaced Keystone application credential %q (ID %s) with a new one (ID %s) and published its secret, because %s. Keystone cannot change an application credential; the old one was deleted first, since Keystone allows one credential per name and user"
	whyLost     = "its secret, which Keystone returns only to the create, was not in the connection Secret"
	whyChanged  = "the spec changed: "
)

// reasonReplaced is the event that tells of a replacement.
const reasonReplaced event.Reason = "ReplacedExternalResource"

// Update replaces the credential when the spec differs from it or its secret is lost (see the
// package documentation); it writes nothing otherwise (an adoption whose spec matches: the
// engine records the marker on the resource). The replacement is delete, then create: Keystone
// refuses a second credential with the same name for one user.
func (e *external) Update(ctx context.Context, mg mr, c credential, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	if pid := deref(fp.ProjectID); pid != "" && c.ProjectID != "" && pid != c.ProjectID {
		return nil, errors.Errorf(errMove, c.Name, c.ID, c.ProjectID, pid)
	}
	why := reason(mg, c, m)
	if why == "" {
		return nil, nil
	}
	if err := e.Delete(ctx, mg, c); err != nil {
		return nil, errors.Wrapf(err, errReplaceDelete, c.Name, c.ID)
	}
	// The new credential is this resource's own creation, whatever the old one was.
	m.Origin = provenance.OriginCreated
	n, err := e.create(ctx, mg, m)
	if err != nil {
		return nil, errors.Wrapf(err, errReplaceCreate, fp.Name, c.ID)
	}
	if err := e.record(ctx, mg, n.ID); err != nil {
		return nil, errors.Wrapf(err, errPersistName, n.Name, c.ID, n.ID)
	}
	e.Recorder.Event(mg, event.Normal(reasonReplaced, fmt.Sprintf(msgReplaced, c.Name, c.ID, n.ID, why)))
	return e.details(n.ID, n.Secret), nil
}

// reason says why the credential must be replaced, "" when it need not.
func reason(mg mr, c credential, m provenance.Marker) string {
	want, have := desired(mg.Parameters()), observed(c, mg.Parameters())
	var changed []string
	for _, f := range []struct {
		name string
		same bool
	}{
		{"name", want.Name == have.Name},
		{"description", deref(want.Description) == deref(have.Description)},
		{"roles", strings.Join(want.RoleIDs, ",") == strings.Join(have.RoleIDs, ",") && strings.Join(want.RoleNames, ",") == strings.Join(have.RoleNames, ",")},
		{"expiresAt", deref(want.ExpiresAt) == deref(have.ExpiresAt)},
		{"unrestricted", (want.Unrestricted == nil) == (have.Unrestricted == nil) && (want.Unrestricted == nil || *want.Unrestricted == *have.Unrestricted)},
		{"accessRules", strings.Join(want.AccessRules, "\n") == strings.Join(have.AccessRules, "\n")},
	} {
		if !f.same {
			changed = append(changed, f.name)
		}
	}
	if len(changed) > 0 {
		return whyChanged + strings.Join(changed, ", ")
	}
	if m.Origin == provenance.OriginCreated && secretLost(c, identityv1alpha1.Owned) != "" {
		return whyLost
	}
	return ""
}

// record sets the replacement's ID as the external name and persists it at once, through a
// copy: the API server answers with the stored status, which would replace the status this
// reconcile observed.
func (e *external) record(ctx context.Context, mg mr, id string) error {
	meta.SetExternalName(mg, id)
	if e.Annotations == nil {
		return nil
	}
	cp, ok := mg.DeepCopyObject().(mr)
	if !ok {
		return e.Annotations.UpdateCriticalAnnotations(ctx, mg)
	}
	if err := e.Annotations.UpdateCriticalAnnotations(ctx, cp); err != nil {
		return err
	}
	mg.SetResourceVersion(cp.GetResourceVersion())
	return nil
}
