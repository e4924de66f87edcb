package managedkind

import (
	"testing"
	"time"
)

// TestPollWithin: the next poll comes at most the interval and at least the interval less the
// jitter after the last, spread over that range; without jitter, at the interval.
func TestPollWithin(t *testing.T) {
	const poll, jitter = time.Minute, 6 * time.Second
	hook := pollWithin(jitter)
	lo, hi := poll, time.Duration(0)
	for range 2000 {
		d := hook(nil, poll)
		if d > poll || d < poll-jitter {
			t.Fatalf("next poll after %s, want within [%s, %s]", d, poll-jitter, poll)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	// 2,000 uniform draws miss either tenth of the range with a chance of 1e-91.
	if lo > poll-jitter*9/10 || hi < poll-jitter/10 {
		t.Errorf("next polls spread over [%s, %s], want most of [%s, %s]", lo, hi, poll-jitter, poll)
	}
	if d := pollWithin(0)(nil, poll); d != poll {
		t.Errorf("without jitter: next poll after %s, want %s", d, poll)
	}
}
