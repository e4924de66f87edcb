package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

// kubeKinds are a workload's resource kinds: their API group and the resources listed to count
// what is Ready and what is left.
type kubeKinds struct {
	Group     string
	Resources []string
}

// keystoneKinds are the Keystone workload's.
var keystoneKinds = kubeKinds{Group: "keystone.identity.m.crossplane.io", Resources: []string{"domains", "roles", "projects", "groups", "roleassignments"}}

func (k *kube) gvr(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: k.kinds.Group, Version: "v1alpha1", Resource: resource}
}

// kube reads the workload's resources; writes go through kubectl, as a user's would.
type kube struct {
	// cfg reaches the bench's API server; the API write meter reads its metrics with it.
	cfg        *rest.Config
	dyn        dynamic.Interface
	kubectl    string
	kubeconfig string
	namespace  string
	kinds      kubeKinds
	// stores hold the workload's resources, one per kind, kept by watches once watch has run.
	stores []cache.Store
}

func newKube(kubeconfig, kubectl, namespace string, kinds kubeKinds) (*kube, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &kube{cfg: cfg, dyn: dyn, kubectl: kubectl, kubeconfig: kubeconfig, namespace: namespace, kinds: kinds}, nil
}

// run runs kubectl with args against the bench's API server; its output goes to the bench's log.
func (k *kube) run(ctx context.Context, args ...string) error {
	//nolint:gosec // G204: kubectl is the bench's own -kubectl flag, args the bench's own commands
	cmd := exec.CommandContext(ctx, k.kubectl, append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kubectl %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// census is what one look at the workload's resources found.
type census struct {
	Total, Ready int
	// NotReady holds a few resources that are not Ready and Synced yet, with why, for progress lines.
	NotReady []string
}

// watch starts one watch per workload kind in the bench's namespace and returns once each
// has listed what exists. The census reads what they keep. It used to list every kind from the
// API server once a second: at N=500 that took about a fifth of a core in the bench and more in
// the API server to encode 1,252 objects each second, on the two cores that Keystone, the API
// server and the provider share; a watch costs the API server one more receiver of the
// events it already sends the provider.
func (k *kube) watch(ctx context.Context) error {
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(k.dyn, 0, k.namespace, nil)
	k.stores = k.stores[:0]
	for _, r := range k.kinds.Resources {
		k.stores = append(k.stores, f.ForResource(k.gvr(r)).Informer().GetStore())
	}
	f.Start(ctx.Done())
	for gvr, ok := range f.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("cannot watch %s in namespace %s", gvr.Resource, k.namespace)
		}
	}
	return nil
}

// census counts the workload's resources as the watches last saw them.
func (k *kube) census() census {
	var c census
	for i, st := range k.stores {
		for _, o := range st.List() {
			u, ok := o.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			c.Total++
			if why := notReady(u); why == "" {
				c.Ready++
			} else if len(c.NotReady) < 3 {
				c.NotReady = append(c.NotReady, k.kinds.Resources[i]+"/"+u.GetName()+": "+why)
			}
		}
	}
	return c
}

// notReady is "" when u's Ready and Synced conditions are both True, else what is missing. The
// census asks it of every resource five times a second, on the cores Keystone and the API server
// share: it reads the conditions in place. NestedSlice copied them each time: BenchmarkCensus
// (1,252 resources) took 1.3 ms and 0.93 MB of garbage per census with it, 0.25 ms and 20 kB now.
func notReady(u *unstructured.Unstructured) string {
	conds, _, _ := unstructured.NestedFieldNoCopy(u.Object, "status", "conditions")
	list, _ := conds.([]any)
	var miss []string
	for _, t := range []string{"Ready", "Synced"} {
		if why := conditionNotTrue(list, t); why != "" {
			miss = append(miss, why)
		}
	}
	return strings.Join(miss, ", ")
}

// conditionNotTrue is "" when the condition of type t in conds is True, else "t unset" or
// "t=STATUS REASON".
func conditionNotTrue(conds []any, t string) string {
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if typ, _ := m["type"].(string); typ != t {
			continue
		}
		s, _ := m["status"].(string)
		if s == "True" {
			return ""
		}
		reason, _ := m["reason"].(string)
		return t + "=" + s + " " + reason
	}
	return t + " unset"
}

// externalID is the ID of a resource's external object (its external name).
func (k *kube) externalID(ctx context.Context, resource, name string) (string, error) {
	u, err := k.dyn.Resource(k.gvr(resource)).Namespace(k.namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	id := u.GetAnnotations()["crossplane.io/external-name"]
	if id == "" {
		return "", fmt.Errorf("%s %s/%s has no external name", resource, k.namespace, name)
	}
	return id, nil
}
