package main

import (
	"sort"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-identity/functions/identity-platform/input/v1beta1"
)

const defaultDeletionPolicyPath = "spec.deletionPolicy"

// deletionPolicy maps the XR's deletionPolicy (Retain or Delete) onto the management policies
// of every desired namespaced managed resource of the provider that earlier steps gave none:
// Crossplane v2 has no deletionPolicy on namespaced managed resources. Resources that already
// have policies (observe-only lookups, an adopted Domain) keep theirs.
func (s *state) deletionPolicy(d *v1beta1.DeletionPolicy) error {
	path := d.FieldPath
	if path == "" {
		path = defaultDeletionPolicyPath
	}
	v, err := s.xr.GetString(path)
	if err != nil {
		return errors.Wrapf(err, "cannot read %s of the composite resource (Retain or Delete)", path)
	}
	policies, err := policiesFor(v)
	if err != nil {
		return errors.Wrap(err, path)
	}
	names := make([]string, 0, len(s.desired))
	for n := range s.desired {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		r := s.desired[resource.Name(n)].Resource
		if !isNamespacedIdentityKind(r.GetAPIVersion()) {
			continue
		}
		p := fieldpath.Pave(r.Object)
		if _, err := p.GetValue("spec.managementPolicies"); err == nil {
			continue
		}
		if err := p.SetValue("spec.managementPolicies", policiesAsAny(policies)); err != nil {
			return errors.Wrapf(err, "cannot set spec.managementPolicies of composed resource %s", n)
		}
	}
	return nil
}
