package managedkind

import (
	"context"
	"testing"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func TestUnchangedStatusSkipper(t *testing.T) {
	ready := xpv2.Available()
	ready.LastTransitionTime = metav1.NewTime(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	cases := map[string]struct {
		// change is what the reconcile did to the resource it read before its status update.
		change   func(*v1alpha1.Domain)
		opts     []client.SubResourceUpdateOption
		notFound bool
		wantSent bool
		wantErr  func(error) bool
	}{
		"UnchangedStatusIsNotSent": {
			change: func(*v1alpha1.Domain) {},
		},
		"TheSameConditionSetAgainIsNotSent": {
			// crossplane-runtime keeps a condition that is equal but for its time.
			change: func(d *v1alpha1.Domain) { d.SetConditions(xpv2.Available()) },
		},
		"ANewConditionIsSent": {
			change:   func(d *v1alpha1.Domain) { d.SetConditions(xpv2.ReconcileError(kerrors.NewBadRequest("boom"))) },
			wantSent: true,
		},
		"AChangedObservationIsSent": {
			change:   func(d *v1alpha1.Domain) { d.Status.AtProvider.ID = "other" },
			wantSent: true,
		},
		"AnotherVersionIsSentAndConflicts": {
			change:   func(d *v1alpha1.Domain) { d.SetResourceVersion("1") },
			wantSent: true,
			wantErr:  kerrors.IsConflict,
		},
		"AResourceTheCacheDoesNotHoldIsSent": {
			change:   func(*v1alpha1.Domain) {},
			notFound: true,
			wantSent: true,
			wantErr:  kerrors.IsNotFound,
		},
		"ADryRunIsSent": {
			change:   func(*v1alpha1.Domain) {},
			opts:     []client.SubResourceUpdateOption{client.DryRunAll},
			wantSent: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			stored := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "x"}}
			stored.Status.AtProvider.ID = "d1"
			stored.SetConditions(ready)
			kube, read, sent := countedUpdates(t, s, stored, tc.notFound)
			mg := read.(*v1alpha1.Domain)
			tc.change(mg)
			err := unchangedStatusSkipper{Client: kube}.Status().Update(context.Background(), mg, tc.opts...)
			checkSent(t, err, tc.wantErr, *sent, tc.wantSent)
		})
	}
}

// TestStatusField: the skipper compares a managed resource's Status field, and treats an object
// without one as changed.
func TestStatusField(t *testing.T) {
	if !statusField(&v1alpha1.Domain{}).IsValid() {
		t.Error("statusField(*Domain) is invalid, want its Status field")
	}
	if statusField(&metav1.PartialObjectMetadata{}).IsValid() {
		t.Error("statusField(*PartialObjectMetadata) is valid, want invalid: it has no Status field")
	}
}
