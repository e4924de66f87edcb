package adoption

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var errTwin = errors.New("409: a thing named a exists")

// twinDriver is a fakeDriver whose system refuses twins: its Create fails with createErr.
type twinDriver struct {
	*fakeDriver
	createErr error
}

func (d *twinDriver) IsTwin(err error) bool { return errors.Is(err, errTwin) }

func (d *twinDriver) Create(ctx context.Context, mg *v1alpha1.Domain, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	d.note(ctx, "Create")
	if d.createErr != nil {
		return "", nil, d.createErr
	}
	return d.fakeDriver.Create(ctx, mg, m)
}

// A kind that refuses twins is not looked up before a resource's first create; every
// resource that may already have an object, or expects one, still is.
func TestCreatesFirst(t *testing.T) {
	annotated := func(k string) func(*v1alpha1.Domain) {
		return func(mg *v1alpha1.Domain) { meta.AddAnnotations(mg, map[string]string{k: time.Now().String()}) }
	}
	cases := map[string]struct {
		mg        *v1alpha1.Domain
		twins     bool
		wantCalls []string
	}{
		"FirstCreateLooksNothingUp":    {mg: newMR(), twins: true},
		"KindThatAllowsTwinsLooksUp":   {mg: newMR(), wantCalls: []string{"Find"}},
		"AfterAFailedCreate":           {mg: newMR(annotated(meta.AnnotationKeyExternalCreateFailed)), twins: true, wantCalls: []string{"Find"}},
		"AfterAnInterruptedCreate":     {mg: newMR(annotated(meta.AnnotationKeyExternalCreatePending)), twins: true, wantCalls: []string{"Find"}},
		"AfterASucceededCreate":        {mg: newMR(annotated(meta.AnnotationKeyExternalCreateSucceeded)), twins: true, wantCalls: []string{"Find"}},
		"AfterAnUnconfirmedCreate":     {mg: newMR(annotated(AnnotationCreateUnconfirmed)), twins: true, wantCalls: []string{"Find"}},
		"AdoptExistingExpectsAnObject": {mg: newMR(adoptExisting), twins: true, wantCalls: []string{"Find"}},
		"ObserveOnly": {mg: newMR(func(mg *v1alpha1.Domain) {
			mg.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		}), twins: true, wantCalls: []string{"Find"}},
		"Deleting":        {mg: newMR(deleting), twins: true, wantCalls: []string{"Find alone"}},
		"KnownObjectRead": {mg: newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }), twins: true, wantCalls: []string{"Get", "Find"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fd := &fakeDriver{}
			var d Driver[*v1alpha1.Domain, obj] = fd
			if tc.twins {
				d = &twinDriver{fakeDriver: fd}
			}
			obs, err := NewExternal(d, Config{GroupKind: groupKind, Installation: "here"}).Observe(context.Background(), tc.mg)
			if err != nil || obs.ResourceExists {
				t.Fatalf("Observe(): exists %v, err %v; want no object, no error", obs.ResourceExists, err)
			}
			if diff := cmp.Diff(tc.wantCalls, fd.calls, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("calls: -want, +got:\n%s", diff)
			}
		})
	}
}

// A first create that fails on a twin judges it as Observe would have: what is not this
// resource's is a conflict the user can act on, this resource's own is managed again, and a
// twin that cannot be found leaves the create's own error.
func TestFirstCreateJudgesItsTwin(t *testing.T) {
	type want struct {
		err          string
		conflict     bool
		externalName string
		readyReason  xpv2.ConditionReason
		events       []event.Reason
		calls        []string
	}
	cases := map[string]struct {
		byKey     []obj
		createErr error
		want      want
	}{
		"Created": {
			want: want{externalName: "new-id", readyReason: xpv2.ReasonCreating, calls: []string{"Create"}},
		},
		"TwinMadeByHand": {
			byKey: []obj{{ID: "1", Key: "a"}}, createErr: errTwin,
			want: want{conflict: true, readyReason: ReasonAdoptionRequired, calls: []string{"Create", "Find"}},
		},
		"TwinOfAnotherInstallation": {
			byKey:     []obj{{ID: "1", Key: "a", Marker: &provenance.Marker{Installation: "there", Resource: groupKind + "/a", Origin: provenance.OriginCreated}}},
			createErr: errTwin,
			want:      want{conflict: true, readyReason: ReasonAdoptionRequired, calls: []string{"Create", "Find"}},
		},
		"OwnObjectOfAnEarlierLife": {
			byKey: []obj{{ID: "1", Key: "a", Marker: ours(provenance.OriginCreated)}}, createErr: errTwin,
			want: want{externalName: "1", readyReason: xpv2.ReasonCreating, events: []event.Reason{reasonRecovered}, calls: []string{"Create", "Find"}},
		},
		"TwinNotFound": {
			createErr: errTwin,
			want:      want{err: errTwin.Error(), readyReason: xpv2.ReasonCreating, calls: []string{"Create", "Find"}},
		},
		"OtherFailureLooksNothingUp": {
			createErr: errors.New("403"),
			want:      want{err: "403", readyReason: xpv2.ReasonCreating, calls: []string{"Create"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fd := &fakeDriver{byKey: tc.byKey}
			rec := &recorder{}
			e := NewExternal[*v1alpha1.Domain, obj](&twinDriver{fakeDriver: fd, createErr: tc.createErr},
				Config{GroupKind: groupKind, Installation: "here", Annotations: &fakeAnnotations{}, Recorder: rec})
			mg := newMR()
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			meta.SetExternalCreatePending(mg, time.Now()) // as the reconciler does before Create
			_, err := e.Create(context.Background(), mg)
			var ce *ConflictError
			got := want{conflict: errors.As(err, &ce), externalName: meta.GetExternalName(mg),
				readyReason: mg.GetCondition(xpv2.TypeReady).Reason, events: rec.reasons, calls: fd.calls}
			if err != nil && !got.conflict {
				got.err = err.Error()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Create(): -want, +got:\n%s", diff)
			}
		})
	}
}
