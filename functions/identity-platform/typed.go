package main

import (
	"strings"

	"github.com/go-json-experiment/json"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/resource/composed"
)

// API versions of the namespaced (Crossplane v2) kinds the function composes.
const (
	keystoneAPIVersion  = "keystone.identity.m.crossplane.io/v1alpha1"
	authentikAPIVersion = "authentik.identity.m.crossplane.io/v1alpha1"
	// namespacedGroupSuffix ends the API group of every namespaced kind of the provider.
	namespacedGroupSuffix = ".identity.m.crossplane.io"
)

// toComposed turns a typed object into a composed resource. As composed.From does, it goes
// through go-json-experiment so that empty non-pointer structs marked omitempty are left out
// (an empty object would be a server-side-apply opinion of the function), and drops what
// go-json-experiment keeps but no function may set: metadata.generation, the zero
// creationTimestamp, and status (the zero values of the observation).
func toComposed(obj any) (*composed.Unstructured, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode a composed resource")
	}
	m := map[string]any{}
	if err := json.Unmarshal(j, &m); err != nil {
		return nil, errors.Wrap(err, "cannot decode a composed resource")
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
		delete(md, "generation")
		if len(md) == 0 {
			delete(m, "metadata")
		}
	}
	delete(m, "status")
	return &composed.Unstructured{Unstructured: unstructured.Unstructured{Object: m}}, nil
}

// Management policies a composite's spec.deletionPolicy maps onto (ADR 0005, Compositions).
// Crossplane v2 has no deletionPolicy on namespaced managed resources: keeping the external
// object means every action but Delete.
var (
	policiesDelete = xpv2.ManagementPolicies{xpv2.ManagementActionAll}
	policiesRetain = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
		xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}
	policiesObserve = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
)

// Values of a composite's spec.deletionPolicy.
const (
	deletionRetain = "Retain"
	deletionDelete = "Delete"
)

// policiesFor maps a composite's deletionPolicy onto management policies.
func policiesFor(deletionPolicy string) (xpv2.ManagementPolicies, error) {
	switch deletionPolicy {
	case deletionDelete:
		return policiesDelete, nil
	case deletionRetain:
		return policiesRetain, nil
	}
	return nil, errors.Errorf("deletionPolicy %q is not one of Retain or Delete", deletionPolicy)
}

// isNamespacedIdentityKind tells whether apiVersion is one of the provider's namespaced groups.
func isNamespacedIdentityKind(apiVersion string) bool {
	group, _, _ := strings.Cut(apiVersion, "/")
	return strings.HasSuffix(group, namespacedGroupSuffix)
}

func policiesAsAny(p xpv2.ManagementPolicies) []any {
	out := make([]any, len(p))
	for i := range p {
		out[i] = string(p[i])
	}
	return out
}
