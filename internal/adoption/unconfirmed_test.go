package adoption

import (
	"context"
	"errors"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// failingCreate is a fakeDriver whose create fails with err but, when committed is set, makes
// the object all the same (a server that fails after committing).
type failingCreate struct {
	fakeDriver
	err       error
	committed bool
}

func (d *failingCreate) Create(_ context.Context, _ *v1alpha1.Domain, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if d.committed {
		d.byKey = []obj{{ID: "1", Key: "a", Markerless: true}}
	}
	return "", nil, d.err
}

// A markerless create whose answer was a 5xx but which the server carried out is the
// resource's own on the next reconcile; one refused with a 4xx is not.
func TestCreateUnconfirmed(t *testing.T) {
	err5xx, err4xx := errors.New("503"), errors.New("409")
	mayHave := func(err error) bool { return errors.Is(err, err5xx) }
	cases := map[string]struct {
		err          error
		wantRecorded bool
		wantConflict bool
	}{
		"AnsweredWith5xx":     {err: err5xx, wantRecorded: true},
		"RefusedWith4xxIsNot": {err: err4xx, wantConflict: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &failingCreate{err: tc.err, committed: true}
			mg := newMR()
			cfg := Config{GroupKind: groupKind, Installation: "here", Annotations: &fakeAnnotations{}, MayHaveCommitted: mayHave}
			if _, err := NewExternal[*v1alpha1.Domain, obj](d, cfg).Observe(context.Background(), mg); err != nil {
				t.Fatalf("first Observe(): %v", err)
			}
			if _, err := NewExternal[*v1alpha1.Domain, obj](d, cfg).Create(context.Background(), mg); !errors.Is(err, tc.err) {
				t.Fatalf("Create(): got %v, want %v", err, tc.err)
			}
			// The reconciler records the failure after the pending mark.
			meta.SetExternalCreateFailed(mg, meta.GetExternalCreatePending(mg).Add(1))
			if got := mg.GetAnnotations()[AnnotationCreateUnconfirmed] != ""; got != tc.wantRecorded {
				t.Fatalf("create recorded as unconfirmed: got %v, want %v", got, tc.wantRecorded)
			}
			_, err := NewExternal[*v1alpha1.Domain, obj](d, cfg).Observe(context.Background(), mg)
			var ce *ConflictError
			if got := errors.As(err, &ce); got != tc.wantConflict {
				t.Fatalf("second Observe(): conflict %v, want %v (err %v)", got, tc.wantConflict, err)
			}
			if tc.wantConflict {
				return
			}
			// Across a third reconcile: the annotation, not the unconfirmed create, proves it now.
			obs, err := NewExternal[*v1alpha1.Domain, obj](&fakeDriver{byID: map[string]obj{"1": {ID: "1", Key: "a", Markerless: true}}}, cfg).Observe(context.Background(), mg)
			if err != nil || !obs.ResourceExists || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned || meta.GetExternalName(mg) != "1" {
				t.Fatalf("third Observe(): %+v, %v, provenance %q, external name %q; want the object Owned", obs, err, mg.Status.AtProvider.Provenance, meta.GetExternalName(mg))
			}
		})
	}
}
