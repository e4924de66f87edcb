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
	dyn        dynamic.Interface
	kubectl    string
	kubeconfig string
	namespace  string
	kinds      kubeKinds
}

func newKube(kubeconfig, kubectl, namespace string, kinds kubeKinds) (*kube, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	// The bench lists every kind once a second: client-go's default 5 requests/s would make
	// it lag behind what it measures.
	cfg.QPS, cfg.Burst = 100, 200
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &kube{dyn: dyn, kubectl: kubectl, kubeconfig: kubeconfig, namespace: namespace, kinds: kinds}, nil
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

// census lists the workload's resources from the API server's watch cache (resourceVersion
// "0"): the bench looks every second, and a quorum read of every resource from etcd each time
// would take CPU from the system under test on a two-core machine. The cache lags etcd by
// milliseconds, which is noise next to the one-second look.
func (k *kube) census(ctx context.Context) (census, error) {
	var c census
	for _, r := range k.kinds.Resources {
		l, err := k.dyn.Resource(k.gvr(r)).Namespace(k.namespace).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return c, err
		}
		for i := range l.Items {
			c.Total++
			if why := notReady(&l.Items[i]); why == "" {
				c.Ready++
			} else if len(c.NotReady) < 3 {
				c.NotReady = append(c.NotReady, r+"/"+l.Items[i].GetName()+": "+why)
			}
		}
	}
	return c, nil
}

// notReady is "" when u's Ready and Synced conditions are both True, else what is missing.
func notReady(u *unstructured.Unstructured) string {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	got := map[string]string{}
	for _, c := range conds {
		m, _ := c.(map[string]any)
		t, _ := m["type"].(string)
		s, _ := m["status"].(string)
		reason, _ := m["reason"].(string)
		if s == "True" {
			got[t] = ""
		} else {
			got[t] = s + " " + reason
		}
	}
	var miss []string
	for _, t := range []string{"Ready", "Synced"} {
		if why, ok := got[t]; !ok {
			miss = append(miss, t+" unset")
		} else if why != "" {
			miss = append(miss, t+"="+why)
		}
	}
	return strings.Join(miss, ", ")
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
