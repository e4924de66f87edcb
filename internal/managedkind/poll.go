package managedkind

import (
	"math/rand/v2"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// pollWithin is the reconciler's poll interval hook: a resource's next poll comes at a random
// time up to jitter before the poll interval, never after it, so that resources applied
// together spread out and each is still checked at least once per interval.
//
// crossplane-runtime's WithPollJitterHook moves the poll either way. With it, a change made by
// hand could go unnoticed for longer than a poll interval plus jitter: a list shared by polls
// answers for up to half the jitter (clients.SharedReadOptions.Fresh), so the poll right after
// the change may read the object as it was, and the next one came up to the interval plus the
// jitter later (a launch URL changed by hand was put back after 66.8 s at a one-minute poll
// and 10% jitter, in one make bench-scale SYSTEM=authentik N=200 run). Polled this way, the
// next one comes at most an interval later: a change is read within the interval plus half
// the jitter.
func pollWithin(jitter time.Duration) managed.PollIntervalHook {
	return func(_ resource.Managed, poll time.Duration) time.Duration {
		//nolint:gosec // G404: spreads polls over time; nothing depends on it being unpredictable
		return poll - time.Duration(rand.Float64()*float64(jitter))
	}
}
