package managedkind

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
)

// Recorder returns the event recorder of the controller called name. crossplane-runtime's API
// recorder still takes client-go's old record.EventRecorder, which controller-runtime now
// deprecates in favour of the events API; this is the one place that bridges the two.
func Recorder(mgr ctrl.Manager, name string) event.Recorder {
	return event.NewAPIRecorder(mgr.GetEventRecorderFor(name)) //nolint:staticcheck // SA1019: see above; no recorder of the new events API exists in crossplane-runtime v2.4
}
