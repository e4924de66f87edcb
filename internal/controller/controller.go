// Package controller registers every controller of the provider.
package controller

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/customresourcesgate"

	authentikapplication "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/application"
	authentikbrand "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/brand"
	authentikcertificatekeypair "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/certificatekeypair"
	authentikflow "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/flow"
	authentikflowstagebinding "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/flowstagebinding"
	authentikgroup "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/group"
	authentikldapprovider "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/ldapprovider"
	authentikoauth2provider "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/oauth2provider"
	authentikoutpost "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/outpost"
	authentikpolicy "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/policy"
	authentikpolicybinding "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/policybinding"
	authentikprompt "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/prompt"
	authentikpropertymapping "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/propertymapping"
	authentikproxyprovider "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/proxyprovider"
	authentiksamlprovider "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/samlprovider"
	authentikstage "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/stage"
	authentiktoken "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/token"
	authentikuser "github.com/crossplane-contrib/provider-identity/internal/controller/authentik/user"
	"github.com/crossplane-contrib/provider-identity/internal/controller/config"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/applicationcredential"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/domain"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/domainconfig"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/endpoint"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/group"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/groupmembership"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/identityprovider"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/impliedrole"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/limit"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/mapping"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/project"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/protocol"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/region"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/registeredlimit"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/role"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/roleassignment"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/service"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/user"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

// setups lists each kind's Setup/SetupGated pair; a new kind is one line here.
var setups = []struct {
	setup, gated func(ctrl.Manager, managedkind.Options) error
}{
	{domain.Setup, domain.SetupGated},
	{authentikgroup.Setup, authentikgroup.SetupGated},
	{authentikuser.Setup, authentikuser.SetupGated},
	{domainconfig.Setup, domainconfig.SetupGated},
	{identityprovider.Setup, identityprovider.SetupGated},
	{mapping.Setup, mapping.SetupGated},
	{protocol.Setup, protocol.SetupGated},
	{authentikapplication.Setup, authentikapplication.SetupGated},
	{authentikoauth2provider.Setup, authentikoauth2provider.SetupGated},
	{authentiksamlprovider.Setup, authentiksamlprovider.SetupGated},
	{authentikproxyprovider.Setup, authentikproxyprovider.SetupGated},
	{authentikldapprovider.Setup, authentikldapprovider.SetupGated},
	{authentikoutpost.Setup, authentikoutpost.SetupGated},
	{authentikflow.Setup, authentikflow.SetupGated},
	{authentikstage.Setup, authentikstage.SetupGated},
	{authentikprompt.Setup, authentikprompt.SetupGated},
	{authentikflowstagebinding.Setup, authentikflowstagebinding.SetupGated},
	{authentikpolicy.Setup, authentikpolicy.SetupGated},
	{authentikpolicybinding.Setup, authentikpolicybinding.SetupGated},
	{authentikpropertymapping.Setup, authentikpropertymapping.SetupGated},
	{authentikcertificatekeypair.Setup, authentikcertificatekeypair.SetupGated},
	{authentikbrand.Setup, authentikbrand.SetupGated},
	{authentiktoken.Setup, authentiktoken.SetupGated},
	{project.Setup, project.SetupGated},
	{role.Setup, role.SetupGated},
	{group.Setup, group.SetupGated},
	{user.Setup, user.SetupGated},
	{roleassignment.Setup, roleassignment.SetupGated},
	{groupmembership.Setup, groupmembership.SetupGated},
	{impliedrole.Setup, impliedrole.SetupGated},
	{region.Setup, region.SetupGated},
	{service.Setup, service.SetupGated},
	{endpoint.Setup, endpoint.SetupGated},
	{registeredlimit.Setup, registeredlimit.SetupGated},
	{limit.Setup, limit.SetupGated},
	{applicationcredential.Setup, applicationcredential.SetupGated},
}

// Setup adds every controller to the manager at once.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	if err := config.Setup(mgr, o); err != nil {
		return err
	}
	for _, s := range setups {
		if err := s.setup(mgr, o); err != nil {
			return err
		}
	}
	return nil
}

// SetupGated adds every managed-resource controller once its CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	if err := config.Setup(mgr, o); err != nil {
		return err
	}
	for _, s := range setups {
		if err := s.gated(mgr, o); err != nil {
			return err
		}
	}
	return nil
}

// SetupSafeStart adds every controller the way a provider with the safe-start capability runs:
// with it, Crossplane installs a managed kind's CRD only once a ManagedResourceActivationPolicy
// activates the kind, perhaps long after the provider started, or never. So the ProviderConfig
// controllers start at once (their CRDs come with the package), and each managed kind's
// controller when the CRD gate sees its CRD established; a kind that is not activated costs
// nothing and fails nothing. Crossplane grants a safe-start provider read access to CRDs. The
// manager's scheme must know CRDs (AddToScheme registers them).
func SetupSafeStart(mgr ctrl.Manager, o managedkind.Options) error {
	o.Gate = new(gate.Gate[schema.GroupVersionKind])
	if err := customresourcesgate.Setup(mgr, o.Options); err != nil {
		return errors.Wrap(err, "cannot set up the CRD gate")
	}
	return SetupGated(mgr, o)
}
