package managedkind

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// addRecorder is a manager that records the runnables added to it, or refuses them with err.
type addRecorder struct {
	ctrl.Manager

	mu    sync.Mutex
	added []string
	err   error
}

func (m *addRecorder) Add(r manager.Runnable) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.added = append(m.added, string(r.(namedRunnable)))
	return nil
}

func (m *addRecorder) names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.added...)
}

type namedRunnable string

func (namedRunnable) Start(context.Context) error { return nil }

func TestHeldManager(t *testing.T) {
	errBoom := errors.New("boom")
	cases := map[string]struct {
		reason string
		steps  func(m *heldManager) error
		refuse error
		want   []string
		err    error
	}{
		"HeldUntilRelease": {
			reason: "What the builder adds before release reaches the manager only then.",
			steps: func(m *heldManager) error {
				if err := m.Add(namedRunnable("controller")); err != nil {
					return err
				}
				if got := m.Manager.(*addRecorder).names(); len(got) != 0 {
					return errors.Errorf("added before release: %v", got)
				}
				return m.release()
			},
			want: []string{"controller"},
		},
		"ReleasedOnce": {
			reason: "A second release adds nothing again.",
			steps: func(m *heldManager) error {
				_ = m.Add(namedRunnable("controller"))
				_ = m.release()
				return m.release()
			},
			want: []string{"controller"},
		},
		"AddAfterRelease": {
			reason: "Once released, what is added goes to the manager at once.",
			steps: func(m *heldManager) error {
				_ = m.release()
				return m.Add(namedRunnable("late"))
			},
			want: []string{"late"},
		},
		"RefusedByManager": {
			reason: "The manager's refusal (it is stopping, say) is release's error.",
			steps: func(m *heldManager) error {
				_ = m.Add(namedRunnable("controller"))
				return m.release()
			},
			refuse: errBoom,
			err:    errBoom,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rec := &addRecorder{err: tc.refuse}
			err := tc.steps(&heldManager{Manager: rec})
			if diff := cmp.Diff(tc.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("%s\nerror: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, rec.names(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nadded: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// fakeHost is an informer that hands every event to the handlers added to it and counts the
// handlers removed.
type fakeHost struct {
	mu       sync.Mutex
	handlers map[*fakeRegistration]toolscache.ResourceEventHandler
	removed  int
	addErr   error
}

type fakeRegistration struct {
	toolscache.ResourceEventHandlerRegistration
}

func (h *fakeHost) AddEventHandler(handler toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	if h.addErr != nil {
		return nil, h.addErr
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	reg := &fakeRegistration{}
	if h.handlers == nil {
		h.handlers = map[*fakeRegistration]toolscache.ResourceEventHandler{}
	}
	h.handlers[reg] = handler
	return reg, nil
}

func (h *fakeHost) RemoveEventHandler(handle toolscache.ResourceEventHandlerRegistration) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	reg, ok := handle.(*fakeRegistration)
	if !ok || h.handlers[reg] == nil {
		return errors.New("not registered")
	}
	delete(h.handlers, reg)
	h.removed++
	return nil
}

func (h *fakeHost) each(fn func(toolscache.ResourceEventHandler)) {
	h.mu.Lock()
	hs := make([]toolscache.ResourceEventHandler, 0, len(h.handlers))
	for _, hd := range h.handlers {
		hs = append(hs, hd)
	}
	h.mu.Unlock()
	for _, hd := range hs {
		fn(hd)
	}
}

func (h *fakeHost) state() (handlers, removed int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.handlers), h.removed
}

func TestStartOnFirst(t *testing.T) {
	type want struct {
		starts   int
		handlers int
		removed  int
	}
	cases := map[string]struct {
		reason string
		events func(h *fakeHost)
		want   want
	}{
		"NoResource": {
			reason: "Without a resource of the kind nothing starts and the listener stays.",
			events: func(*fakeHost) {},
			want:   want{starts: 0, handlers: 1, removed: 0},
		},
		"FirstResource": {
			reason: "The first resource (or the resources that exist when the informer syncs) starts the controller once, and the listener goes.",
			events: func(h *fakeHost) {
				h.each(func(hd toolscache.ResourceEventHandler) {
					hd.OnAdd("a", true)
					hd.OnAdd("b", true)
					hd.OnUpdate("a", "a")
				})
			},
			want: want{starts: 1, handlers: 0, removed: 1},
		},
		"UpdateOnly": {
			reason: "An update also tells of a resource.",
			events: func(h *fakeHost) {
				h.each(func(hd toolscache.ResourceEventHandler) { hd.OnUpdate("a", "a") })
			},
			want: want{starts: 1, handlers: 0, removed: 1},
		},
		"DeleteOnly": {
			reason: "A delete tells of no resource left: nothing starts.",
			events: func(h *fakeHost) {
				h.each(func(hd toolscache.ResourceEventHandler) { hd.OnDelete("a") })
			},
			want: want{starts: 0, handlers: 1, removed: 0},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := &fakeHost{}
			var mu sync.Mutex
			starts := 0
			start := func() error {
				mu.Lock()
				defer mu.Unlock()
				starts++
				return nil
			}
			if err := startOnFirst(h, start, logr.Discard()); err != nil {
				t.Fatalf("startOnFirst: %v", err)
			}
			tc.events(h)
			if tc.want.starts == 0 {
				// Nothing should start: give a wrongly started goroutine time to show.
				time.Sleep(100 * time.Millisecond)
			}
			got := want{}
			// The start runs in a goroutine of its own: wait for what is expected, briefly.
			for deadline := time.Now().Add(5 * time.Second); ; {
				mu.Lock()
				got.starts = starts
				mu.Unlock()
				got.handlers, got.removed = h.state()
				if got == tc.want || time.Now().After(deadline) {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestStartOnFirstCannotListen(t *testing.T) {
	errBoom := errors.New("boom")
	err := startOnFirst(&fakeHost{addErr: errBoom}, func() error { return nil }, logr.Discard())
	if !errors.Is(err, errBoom) {
		t.Errorf("startOnFirst with an informer that refuses handlers: got %v, want an error wrapping %v", err, errBoom)
	}
}
