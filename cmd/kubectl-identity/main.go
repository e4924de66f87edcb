// Command kubectl-identity is provider-identity's kubectl plugin. `kubectl identity import`
// writes managed resource manifests for objects that already exist in Keystone or authentik, so that they
// can be observed, reviewed and then adopted one by one (docs/import.md).
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/alecthomas/kingpin/v2"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-identity/apis"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/importer"
)

func main() {
	app := kingpin.New("kubectl-identity", "provider-identity's kubectl plugin.")
	imp := app.Command("import", "Write manifests for existing Keystone or authentik objects: --mode observe first, review, then --mode adopt on the same directory.")
	var (
		o          importer.Options
		mode       string
		kubeconfig string
		ks         identityv1alpha1.KeystoneConfig
		username   string
		userDomain string
		project    string
		projDomain string
		appCredID  string
		ak         identityv1alpha1.AuthentikConfig
		akInsecure bool
	)
	imp.Flag("kubeconfig", "Kubeconfig of the cluster (default: $KUBECONFIG, ~/.kube/config).").StringVar(&kubeconfig)
	imp.Flag("provider-config", "The ProviderConfig or ClusterProviderConfig (identity.m.crossplane.io) to connect through, and that the manifests name.").StringVar(&o.Source.ConfigName)
	imp.Flag("provider-config-kind", "ProviderConfig (in --namespace) or ClusterProviderConfig.").Default("ClusterProviderConfig").EnumVar(&o.Source.ConfigKind, "ProviderConfig", "ClusterProviderConfig")
	imp.Flag("namespace", "Namespace of the generated resources.").Short('n').Required().StringVar(&o.Namespace)
	imp.Flag("dir", "Directory to write the manifests into (one file per object).").Required().StringVar(&o.Dir)
	imp.Flag("mode", "observe: managementPolicies [Observe]; adopt: adoptionPolicy AdoptExisting, on the objects of the directory's files if it has any.").Default("observe").EnumVar(&mode, "observe", "adopt")
	imp.Flag("system", "The identity system you mean (keystone or authentik); default: the one the ProviderConfig or the explicit URL configures. A ProviderConfig of the other system is refused.").EnumVar(&o.Source.System, "keystone", "authentik")
	imp.Flag("kind", "Kinds to list; repeat for more. Default: all. Keystone: "+strings.Join(importer.KeystoneKinds, ", ")+"; authentik: "+strings.Join(importer.AuthentikKinds(), ", ")+".").StringsVar(&o.Filter.Kinds)
	imp.Flag("domain", "List only this Keystone domain (by name) and what is in it.").StringVar(&o.Filter.Domain)
	imp.Flag("name", "List only objects whose name matches this shell pattern (authentik: a user's username, an application's slug).").StringVar(&o.Filter.Name)
	imp.Flag("include-builtin", "authentik: also list what authentik makes itself (akadmin, authentik Admins, AnonymousUser, users under a goauthentik.io/ path).").BoolVar(&o.Filter.BuiltIn)
	imp.Flag("installation-id", "This installation's ID (default: the ProviderConfig's). Without a ProviderConfig and without it, every marked object is refused.").StringVar(&o.Source.InstallationID)
	imp.Flag("keystone-url", "Connect to this Keystone (auth URL) instead of through a ProviderConfig; the password is read from $"+importer.PasswordEnv+".").StringVar(&ks.AuthURL)
	imp.Flag("keystone-region", "Region of the identity endpoint.").StringVar(&ks.Region)
	imp.Flag("keystone-username", "User name.").Default("admin").StringVar(&username)
	imp.Flag("keystone-user-domain", "The user's domain.").Default("Default").StringVar(&userDomain)
	imp.Flag("keystone-project", "Project to scope the token to.").Default("admin").StringVar(&project)
	imp.Flag("keystone-project-domain", "The project's domain.").Default("Default").StringVar(&projDomain)
	imp.Flag("keystone-application-credential-id", "Authenticate with this application credential ($"+importer.PasswordEnv+" is its secret).").StringVar(&appCredID)
	imp.Flag("authentik-url", "Connect to this authentik instead of through a ProviderConfig; the API token is read from $"+importer.TokenEnv+".").StringVar(&ak.URL)
	imp.Flag("authentik-insecure-skip-verify", "Do not verify authentik's TLS certificate (a first look at a test instance only).").BoolVar(&akInsecure)
	kingpin.MustParse(app.Parse(os.Args[1:]))

	o.Mode = importer.Mode(mode)
	if o.Source.ConfigKind == "ProviderConfig" {
		o.Source.ConfigNamespace = o.Namespace
	}
	if ks.AuthURL != "" {
		if appCredID != "" {
			ks.ApplicationCredential = &identityv1alpha1.KeystoneApplicationCredentialAuth{ID: appCredID}
		} else {
			ks.Password = &identityv1alpha1.KeystonePasswordAuth{Username: username, UserDomainName: userDomain,
				Scope: identityv1alpha1.KeystoneScope{ProjectName: &project, ProjectDomainName: &projDomain}}
		}
		o.Source.Keystone, o.Source.Password = &ks, os.Getenv(importer.PasswordEnv)
	}
	if ak.URL != "" {
		if akInsecure {
			ak.TLS = &identityv1alpha1.TLSConfig{InsecureSkipVerify: true}
		}
		o.Source.Authentik, o.Source.Token = &ak, os.Getenv(importer.TokenEnv)
	}
	explicit := ks.AuthURL != "" || ak.URL != ""
	if !explicit || kubeconfig != "" || os.Getenv("KUBECONFIG") != "" {
		kube, err := kubeClient(kubeconfig)
		kingpin.FatalIfError(err, "Cannot reach the cluster")
		o.Source.Kube = kube
	}
	s, err := importer.Run(context.Background(), o)
	kingpin.FatalIfError(err, "Cannot import")
	kingpin.FatalIfError(s.Print(os.Stdout), "Cannot print the summary")
	fmt.Println("Next: kubectl apply -f", o.Dir, "; see docs/import.md.")
}

// kubeClient builds a client for the cluster of the kubeconfig (kubectl's rules).
func kubeClient(path string) (client.Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = path
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, err
	}
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := apis.AddToScheme(s); err != nil {
		return nil, err
	}
	return client.New(cfg, client.Options{Scheme: s})
}
