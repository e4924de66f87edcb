package clients

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Callers that come while a read is in flight share the next read, which starts after the
// first ends: every one of them gets an answer read after it asked.
func TestJoinedReadsShareTheNextRead(t *testing.T) {
	var j JoinedReads[string, int]
	var reads atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	read := func(ctx context.Context) (int, error) {
		n := int(reads.Add(1))
		started <- struct{}{}
		if n == 1 {
			<-release
		}
		return n, ctx.Err()
	}

	first := make(chan int, 1)
	go func() { v, _ := j.Read(context.Background(), "k", read); first <- v }()
	<-started // read 1 is in flight

	const waiting = 5
	var wg sync.WaitGroup
	got := make([]int, waiting)
	for i := range waiting {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = j.Read(context.Background(), "k", read) }()
	}
	// Give them time to queue behind read 1; none may be answered by it.
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()

	if v := <-first; v != 1 {
		t.Errorf("first caller: got read %d, want 1", v)
	}
	for i, v := range got {
		if v != 2 {
			t.Errorf("caller %d, which came while read 1 was in flight: got read %d, want 2", i, v)
		}
	}
	if n := reads.Load(); n != 2 {
		t.Errorf("reads: got %d, want 2", n)
	}
}

// Callers that come before the first read starts (within Gather of the first caller) share it:
// deletions released together ask one read, not one and then a second for the others.
func TestJoinedReadsGatherCallersAskingTogether(t *testing.T) {
	j := JoinedReads[string, int]{Gather: 200 * time.Millisecond}
	var reads atomic.Int32
	read := func(ctx context.Context) (int, error) { return int(reads.Add(1)), ctx.Err() }
	const together = 5
	var wg sync.WaitGroup
	got := make([]int, together)
	for i := range together {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = j.Read(context.Background(), "k", read) }()
	}
	wg.Wait()
	for i, v := range got {
		if v != 1 {
			t.Errorf("caller %d: got read %d, want 1", i, v)
		}
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("reads: got %d, want 1", n)
	}
}

// Nothing is kept: a caller after the reads ended reads again, after a failure too; keys do
// not share.
func TestJoinedReadsKeepNothing(t *testing.T) {
	var j JoinedReads[string, int]
	calls := 0
	boom := errors.New("boom")
	read := func(context.Context) (int, error) {
		calls++
		if calls == 1 {
			return 0, boom
		}
		return calls, nil
	}
	if _, err := j.Read(context.Background(), "k", read); !errors.Is(err, boom) {
		t.Fatalf("first read: got %v, want %v", err, boom)
	}
	if v, err := j.Read(context.Background(), "k", read); err != nil || v != 2 {
		t.Errorf("second read: got %d, %v; want 2, nil", v, err)
	}
	if v, err := j.Read(context.Background(), "other", read); err != nil || v != 3 {
		t.Errorf("other key: got %d, %v; want 3, nil", v, err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.keys) != 0 {
		t.Errorf("keys kept after the reads ended: %d", len(j.keys))
	}
}

// A caller that gives up gets its context's error; the read goes on for the others, detached
// from the cancelled context.
func TestJoinedReadsCallerGivesUp(t *testing.T) {
	var j JoinedReads[string, int]
	release := make(chan struct{})
	read := func(ctx context.Context) (int, error) {
		<-release
		return 7, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := j.Read(ctx, "k", read); errc <- err }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: got %v, want %v", err, context.Canceled)
	}
	other := make(chan int, 1)
	go func() { v, _ := j.Read(context.Background(), "k", read); other <- v }()
	close(release)
	if v := <-other; v != 7 {
		t.Errorf("other caller: got %d, want 7 (the read must not see the first caller's cancellation)", v)
	}
}
