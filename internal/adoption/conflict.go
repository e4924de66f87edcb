package adoption

import (
	"fmt"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// ReasonAdoptionRequired is the Ready condition's reason while a resource waits for the user to
// resolve a conflict with an external object that is not provably its own.
const ReasonAdoptionRequired xpv2.ConditionReason = "AdoptionRequired"

// A ConflictError explains why the provider will not touch an existing external object and
// what the user can do about it. Its message is what users read in the Ready condition, in the
// Synced condition and in the Warning event, so it names the object, its type, its ID and the
// field to set.
type ConflictError struct {
	// Object describes the external object found.
	Object Description
	// ForeignInstallation is set when the object carries another installation's marker.
	ForeignInstallation string
	// OtherResource is set when the object belongs to another resource of this installation.
	OtherResource string
	// Overwritten is set when the object appeared while this resource was creating it and the
	// create, a write that cannot refuse an existing object, replaced its content.
	Overwritten bool
}

func (e *ConflictError) Error() string {
	o := e.Object
	what := fmt.Sprintf("%s %q (ID %s)", o.Type, o.Key, o.ID)
	switch {
	case e.ForeignInstallation != "":
		return fmt.Sprintf("%s is managed by another provider-identity installation %q; it will not be adopted, "+
			"even with spec.adoptionPolicy: AdoptExisting. Use a different name, or release it from that "+
			"installation first. To only watch it, set spec.managementPolicies: [\"Observe\"]", what, e.ForeignInstallation)
	case e.OtherResource != "":
		return fmt.Sprintf("%s is already managed by %s of this installation; two resources must not manage one "+
			"object. Use a different name, or delete that resource first (with deletionPolicy: Orphan to keep the object)",
			what, ResourceLabel(e.OtherResource))
	case e.Overwritten:
		return fmt.Sprintf("%s appeared while this resource was creating it, and the create replaced its content "+
			"(the API cannot refuse an existing object); it is not managed by this resource. Check it, then set "+
			"spec.adoptionPolicy: AdoptExisting to take it over, or delete it so that this resource creates its own", what)
	default:
		return fmt.Sprintf("%s already exists and was not created by this provider, so it was left untouched. "+
			"To take it over, set spec.adoptionPolicy: AdoptExisting; to only watch it, set "+
			"spec.managementPolicies: [\"Observe\"]; otherwise choose another name", what)
	}
}

// Condition is the Ready condition for the conflict.
func (e *ConflictError) Condition() xpv2.Condition {
	c := xpv2.Unavailable()
	c.Reason = ReasonAdoptionRequired
	c.Message = e.Error()
	return c
}

// ResourceLabel names the resource a marker's Resource field names, for users: a namespaced
// resource with its namespace spelled out, so that a team reading a conflict knows whose it is.
func ResourceLabel(res string) string {
	gk, ns, name, ok := provenance.SplitResourceName(res)
	if !ok || ns == "" {
		return res
	}
	return fmt.Sprintf("%s %q in namespace %s", gk, name, ns)
}
