package importer

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// Mode is what the generated resources do with their objects.
type Mode string

// The modes.
const (
	// ModeObserve resources only read their objects (managementPolicies ["Observe"]).
	ModeObserve Mode = "observe"
	// ModeAdopt resources take their objects over (adoptionPolicy AdoptExisting) and manage
	// them from then on.
	ModeAdopt Mode = "adopt"
)

const annotationExternalName = "crossplane.io/external-name"

// A Manifest is one generated managed resource.
type Manifest struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Spec       Spec     `json:"spec"`
}

// Metadata is a manifest's metadata.
type Metadata struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Annotations map[string]string `json:"annotations"`
}

// Spec is a manifest's spec: the mode's policies, the ProviderConfig and forProvider.
type Spec struct {
	ManagementPolicies []xpv2.ManagementAction         `json:"managementPolicies,omitempty"`
	AdoptionPolicy     identityv1alpha1.AdoptionPolicy `json:"adoptionPolicy,omitempty"`
	ProviderConfigRef  *xpv2.ProviderConfigReference   `json:"providerConfigRef,omitempty"`
	ForProvider        any                             `json:"forProvider"`
}

// manifest renders o in the namespace and mode.
func manifest(o *Object, namespace string, mode Mode, pc *xpv2.ProviderConfigReference, refs Refs) Manifest {
	m := Manifest{
		APIVersion: o.APIVersion, Kind: o.Kind,
		Metadata: Metadata{Name: o.ResourceName, Namespace: namespace, Annotations: map[string]string{annotationExternalName: o.ID}},
		Spec:     Spec{ProviderConfigRef: pc, ForProvider: o.Build(refs)},
	}
	switch mode {
	case ModeAdopt:
		// Management policies are left at their default (all): adopting is managing.
		m.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	default:
		m.Spec.ManagementPolicies = []xpv2.ManagementAction{xpv2.ManagementActionObserve}
	}
	return m
}

// render is the file a manifest is written as: a comment naming the object, then the YAML
// (keys sorted, so the same manifest is always the same bytes).
func render(o *Object, m Manifest) ([]byte, error) {
	fp, err := withoutNulls(m.Spec.ForProvider)
	if err != nil {
		return nil, err
	}
	m.Spec.ForProvider = fp
	y, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("# Written by kubectl identity import from %s.\n", o.Describe)
	for _, n := range o.Notes {
		head += "# " + n + "\n"
	}
	return append([]byte(head), y...), nil
}

// withoutNulls renders forProvider as a map without the null fields: a list field without
// omitempty (an authentik group's parents, filled from parentRefs) must be absent, not null,
// when its references say it.
func withoutNulls(fp any) (map[string]any, error) {
	b, err := json.Marshal(fp)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	for k, v := range out {
		if v == nil {
			delete(out, k)
		}
	}
	return out, nil
}
