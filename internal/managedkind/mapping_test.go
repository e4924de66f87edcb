package managedkind

import (
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// lateMapper maps nothing for its first misses lookups, as discovery right after a CRD is
// established.
type lateMapper struct {
	meta.RESTMapper
	misses int
	err    error
}

func (m *lateMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	if m.misses > 0 {
		m.misses--
		return nil, m.err
	}
	return &meta.RESTMapping{GroupVersionKind: gk.WithVersion(versions[0])}, nil
}

func TestWaitForMapping(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "keystone.identity.crossplane.io", Version: "v1alpha1", Kind: "Domain"}
	noMatch := &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	cases := map[string]struct {
		mapper  *lateMapper
		timeout time.Duration
		wantErr error
	}{
		"MappedAtOnce":          {mapper: &lateMapper{}, timeout: time.Second},
		"MappedAfterTwoMisses":  {mapper: &lateMapper{misses: 2, err: noMatch}, timeout: 5 * time.Second},
		"NeverMappedNamesMatch": {mapper: &lateMapper{misses: 1 << 30, err: noMatch}, timeout: 600 * time.Millisecond, wantErr: noMatch},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := waitForMapping(tc.mapper, gvk, tc.timeout)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("waitForMapping: want %v, got %v", tc.wantErr, err)
			}
			if tc.wantErr == nil && tc.mapper.misses != 0 {
				t.Errorf("waitForMapping returned with %d misses left", tc.mapper.misses)
			}
		})
	}
}
