package main

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-identity/functions/identity-platform/input/v1beta1"
)

// objectList sets l.ToFieldPath of the desired resource l.Resource to one object per string of
// the XR's l.FromFieldPath.
func (s *state) objectList(l v1beta1.ObjectList) error {
	d, ok := s.desired[resource.Name(l.Resource)]
	if !ok {
		return nil
	}
	var in []string
	if err := s.xr.GetValueInto(l.FromFieldPath, &in); err != nil {
		if fieldpath.IsNotFound(err) {
			return nil
		}
		return errors.Wrapf(err, "cannot read %s of the composite resource as a list of strings", l.FromFieldPath)
	}
	if len(in) == 0 {
		return nil
	}
	out := make([]any, 0, len(in))
	for _, v := range in {
		o := map[string]any{l.Key: v}
		for k, f := range l.Fields {
			o[k] = f
		}
		out = append(out, o)
	}
	if err := fieldpath.Pave(d.Resource.Object).SetValue(l.ToFieldPath, out); err != nil {
		return errors.Wrapf(err, "cannot set %s of composed resource %s", l.ToFieldPath, l.Resource)
	}
	return nil
}
