package managedkind

import (
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
)

// Recorder returns the event recorder of the controller called name. crossplane-runtime's API
// recorder still takes client-go's old record.EventRecorder, which controller-runtime now
// deprecates in favour of the events API; this is the one place that bridges the two.
func Recorder(mgr ctrl.Manager, name string) event.Recorder {
	return event.NewAPIRecorder(mgr.GetEventRecorderFor(name)) //nolint:staticcheck // SA1019: see above; no recorder of the new events API exists in crossplane-runtime v2.4
}

// quietRecorder leaves out the warnings of the reconciles whose statuses it passes over
// (PassingStatuses.quiet): a deletion's brief wait for resources of ours.
type quietRecorder struct {
	event.Recorder
	passing *PassingStatuses
}

func (r quietRecorder) Event(obj runtime.Object, e event.Event) {
	if e.Type == event.TypeWarning && r.passing.quiet(obj) {
		return
	}
	r.Recorder.Event(obj, e)
}

func (r quietRecorder) WithAnnotations(keysAndValues ...string) event.Recorder {
	return quietRecorder{Recorder: r.Recorder.WithAnnotations(keysAndValues...), passing: r.passing}
}
