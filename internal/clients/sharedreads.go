package clients

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// minSharedReads is how many reads of a scope, expected within one Fresh period, make a list
// of the scope cheaper than reading each object alone: below it, a list would cost as many
// requests as it saves, and be larger.
const minSharedReads = 2

// refusedListPause is how long a scope whose list was refused (by policy, or truncated) is
// read object by object before its list is tried again.
const refusedListPause = 5 * time.Minute

// SharedReadOptions say how long a list answers reads.
type SharedReadOptions struct {
	// Fresh is how old a list (or our own write's answer) may be and still answer a read. A
	// change made by hand is seen by the first poll more than Fresh after it: keep Fresh
	// below the poll jitter, so that drift is still noticed within a poll interval plus
	// jitter (polls come at most an interval apart). Zero shares nothing: every read goes to
	// the system.
	Fresh time.Duration
	// Window is how far back reads count toward a scope's demand: the poll interval, over
	// which every resource reads its object once.
	Window time.Duration
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time
}

// A Scope is one list of a system: the client that reads it (its credentials decide what it
// may see) and the list's address with its filter, e.g. projects?domain_id=abc.
type Scope struct {
	// Client is the API client; it must be comparable (a pointer).
	Client any
	// List is the list's URL, filter included.
	List string
}

// A Source tells SharedReads how to read one scope: the whole list, one object alone, and
// the ID of an object in the list.
type Source[T any] struct {
	// List reads the whole scope.
	List func(ctx context.Context) ([]T, error)
	// Get reads the object alone; a missing object is its error.
	Get func(ctx context.Context) (T, error)
	// ID is an object's ID as Get is asked for it.
	ID func(T) string
	// Refused tells the list failures that do not go away by themselves (a policy that
	// forbids the list, a list cut short): the scope is then read object by object for a
	// while. Other failures (an outage) fail that list only; nil means none is.
	Refused func(error) bool
}

// SharedReads answers reads of single objects from lists of their scope, shared by every
// resource that reads an object of the scope at about the same time: at steady state one list
// per scope per Fresh period replaces one read per resource per poll. It is exact in the ways
// drift detection needs:
//   - a list or a write's answer older than Fresh answers nothing;
//   - an object missing from a list is read alone: only the system says an object is gone;
//   - our own writes' answers are newer than a list started before them, and answer reads of
//     the object written in their place;
//   - a list that fails is never an answer: its readers read their objects alone, and a list
//     refused for good (by policy, or truncated) is not tried again for a while.
//
// A scope is listed only when its demand, the reads of distinct objects within Window, makes
// it cheaper than single reads: a scope with two resources in a domain of thousands of
// projects is read object by object. The zero SharedReads shares nothing until its options are
// set.
type SharedReads[T any] struct {
	SharedReadOptions

	mu     sync.Mutex
	scopes map[Scope]*scopeReads[T]
	swept  time.Time
}

// NewSharedReads returns a SharedReads with the options o.
func NewSharedReads[T any](o SharedReadOptions) *SharedReads[T] {
	return &SharedReads[T]{SharedReadOptions: o}
}

// scopeReads is what is known of one scope.
type scopeReads[T any] struct {
	// list is the last list read, or the one in flight.
	list *listRead[T]
	// reads are the distinct IDs read, with when each was last read: the scope's demand.
	reads map[string]time.Time
	// wrote are our own writes' answers, by ID.
	wrote map[string]written[T]
	// refusedUntil is when a failed list may be tried again.
	refusedUntil time.Time
}

// listRead is one list of a scope: started at started, done when done is closed.
type listRead[T any] struct {
	started time.Time
	done    chan struct{}
	items   map[string]T
	err     error
}

// written is our own write's answer for one object, and when it came; forgotten means the
// write left no answer, and lists started before it may not answer for the object.
type written[T any] struct {
	v         T
	at        time.Time
	forgotten bool
}

// readAloneKey marks a context whose reads must see the system as it is now.
type readAloneKey struct{}

// ReadAlone returns a context whose reads through SharedReads and SharedLookups go to the
// system itself, never answered by a list, a lookup or a write's answer up to Fresh old. A
// decision that changes the system on what it reads takes it: a delete, and the check of what
// the delete would take with it, must not miss an object someone made a moment ago.
func ReadAlone(ctx context.Context) context.Context {
	return context.WithValue(ctx, readAloneKey{}, true)
}

// ReadsAlone reports whether ctx was made by ReadAlone.
func ReadsAlone(ctx context.Context) bool {
	alone, _ := ctx.Value(readAloneKey{}).(bool)
	return alone
}

// objectsAloneKey marks a context whose reads of objects must see them as they are now.
type objectsAloneKey struct{}

// ReadObjectsAlone returns a context whose reads of objects through SharedReads go to the
// system itself, as ReadAlone's do, while SharedLookups may still answer the lookups that
// turn names into IDs: for a reconcile that must see a change another resource's write made
// to its object, and nothing else.
func ReadObjectsAlone(ctx context.Context) context.Context {
	return context.WithValue(ctx, objectsAloneKey{}, true)
}

// readsObjectsAlone reports whether ctx's reads of objects go to the system.
func readsObjectsAlone(ctx context.Context) bool {
	alone, _ := ctx.Value(objectsAloneKey{}).(bool)
	return alone || ReadsAlone(ctx)
}

// Get returns the object id of scope s: from our own write's answer or a list if one is fresh,
// else from a new list of the scope if its demand calls for one, else read alone. A ReadAlone
// or ReadObjectsAlone context reads it alone. (Lists joined by the deletions that ask while one
// is in flight were tried, and cost more than they saved: deletions come a few per second, a
// list of a busy scope costs several single reads, and few joined each; see ADR 0006.)
func (r *SharedReads[T]) Get(ctx context.Context, s Scope, id string, src Source[T]) (T, error) {
	if readsObjectsAlone(ctx) {
		return src.Get(ctx)
	}
	v, l, answered := r.answerOrList(ctx, s, id, src)
	if answered {
		return v, nil
	}
	if l == nil || !l.wait(ctx) {
		return src.Get(ctx)
	}
	if v, ok := l.items[id]; ok {
		return v, nil
	}
	// Not in the list (gone, or made after it was read): the object alone says which.
	return src.Get(ctx)
}

// answerOrList counts the read of id toward the demand of scope s and returns our own write's
// answer for it if that is fresh and no list is newer (answered is true); else the list that
// may answer the read, started now if the demand calls for one, or nil when the object must
// be read alone.
func (r *SharedReads[T]) answerOrList(ctx context.Context, s Scope, id string, src Source[T]) (v T, l *listRead[T], answered bool) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	sc := r.scope(s, now)
	sc.reads[id] = now
	w, wrote := sc.wrote[id]
	wrote = wrote && !w.at.Before(now.Add(-r.Fresh))
	l = r.freshList(sc, now)
	if wrote && !w.forgotten && (l == nil || !l.started.After(w.at)) {
		return w.v, nil, true
	}
	// A list started before we forgot the object may hold what it was before our write.
	if l != nil && wrote && w.forgotten && !l.started.After(w.at) {
		return v, nil, false
	}
	if l == nil {
		l = r.startList(ctx, s, sc, now, src)
	}
	return v, l, false
}

// Match returns the objects of scope s for which match is true, from a fresh list of the
// scope (or a new one, if the demand calls for it), with our own later writes in place of
// what the list holds; key names the lookup for the demand (a name, say). ok is false when no
// list answers, or one of our writes since the list may have removed a match: the caller then
// asks the system itself.
//
// A lookup answered this way can miss an object made by someone else within Fresh: use it only
// where the system refuses a second object with the same key (a create then fails with a
// conflict), or where the write checks again right before it is made. A ReadAlone context is
// never answered here.
func (r *SharedReads[T]) Match(ctx context.Context, s Scope, key string, match func(T) bool, src Source[T]) ([]T, bool) {
	if readsObjectsAlone(ctx) {
		return nil, false
	}
	now := r.now()
	r.mu.Lock()
	sc := r.scope(s, now)
	sc.reads[key] = now
	l := r.freshList(sc, now)
	if l == nil {
		l = r.startList(ctx, s, sc, now, src)
	}
	r.mu.Unlock()
	if l == nil || !l.wait(ctx) {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out, ok := sc.writesSince(l, now.Add(-r.Fresh), match)
	if !ok {
		return nil, false
	}
	for id, v := range l.items {
		if w, newer := sc.wrote[id]; (!newer || !w.at.After(l.started) || w.at.Before(now.Add(-r.Fresh))) && match(v) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(src.ID(a), src.ID(b)) })
	return out, true
}

// writesSince returns our writes after list l began (and not before oldest) that match; false
// when one of them has an unknown outcome (a delete, a failed write). sc's lock is held.
func (sc *scopeReads[T]) writesSince(l *listRead[T], oldest time.Time, match func(T) bool) ([]T, bool) {
	var out []T
	for _, w := range sc.wrote {
		switch {
		case w.at.Before(oldest) || !w.at.After(l.started):
			// The list is as new as this write, or newer.
		case w.forgotten:
			return nil, false
		case match(w.v):
			out = append(out, w.v)
		}
	}
	return out, true
}

// freshList returns the scope's list if it began within Fresh; r.mu is held.
func (r *SharedReads[T]) freshList(sc *scopeReads[T], now time.Time) *listRead[T] {
	if l := sc.list; l != nil && !l.started.Before(now.Add(-r.Fresh)) {
		return l
	}
	return nil
}

// startList starts a list of the scope if its demand calls for one, and returns it (nil
// otherwise); r.mu is held. The list outlives the read that starts it: its context keeps the
// read's values but not its end.
func (r *SharedReads[T]) startList(ctx context.Context, s Scope, sc *scopeReads[T], now time.Time, src Source[T]) *listRead[T] {
	if !r.shouldList(sc, now) {
		return nil
	}
	l := &listRead[T]{started: now, done: make(chan struct{})}
	sc.list = l
	go r.fetch(context.WithoutCancel(ctx), s, l, src)
	return l
}

// wait waits for the list; false when ctx ends first or the list failed.
func (l *listRead[T]) wait(ctx context.Context) bool {
	select {
	case <-l.done:
		return l.err == nil
	case <-ctx.Done():
		return false
	}
}

// fetch reads the scope's list outside the lock, so that the reads waiting for it (and no
// others) block on the system, and records a failure so that the scope is read object by
// object for a while. It runs detached from the read that started it: a read that gave up
// (its context ended) must not fail the others waiting for the same list.
func (r *SharedReads[T]) fetch(ctx context.Context, s Scope, l *listRead[T], src Source[T]) {
	defer close(l.done)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	items, err := src.List(ctx)
	l.err = err
	if err != nil {
		r.refused(s, err, src)
		return
	}
	l.items = make(map[string]T, len(items))
	for _, v := range items {
		l.items[src.ID(v)] = v
	}
}

// refused makes a scope whose list failed for good (see Source.Refused) read object by
// object for a while.
func (r *SharedReads[T]) refused(s Scope, err error, src Source[T]) {
	if src.Refused == nil || !src.Refused(err) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if sc, ok := r.scopes[s]; ok {
		sc.refusedUntil = r.now().Add(refusedListPause)
	}
}

// Wrote records what the system answered to our write of object id of scope s: it answers
// the reads of that object for Fresh, before any list started earlier.
func (r *SharedReads[T]) Wrote(s Scope, id string, v T) {
	r.record(s, id, written[T]{v: v})
}

// Forget makes the next reads of object id of scope s (deleted, or written without an answer
// to keep) go to the system for Fresh, unless a list started later answers them.
func (r *SharedReads[T]) Forget(s Scope, id string) {
	r.record(s, id, written[T]{forgotten: true})
}

// Drop makes the lists of scope s started until now answer nothing: a write to the scope
// failed in a way that may have been carried out (a create without an answer), on an object
// whose ID is not known.
func (r *SharedReads[T]) Drop(s Scope) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	sc := r.scope(s, now)
	if sc.list != nil && !sc.list.started.After(now) {
		sc.list = nil
	}
}

func (r *SharedReads[T]) record(s Scope, id string, w written[T]) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	w.at = now
	r.scope(s, now).wrote[id] = w
}

// shouldList reports whether the scope's demand makes a list cheaper than single reads.
func (r *SharedReads[T]) shouldList(sc *scopeReads[T], now time.Time) bool {
	if now.Before(sc.refusedUntil) || r.Window <= 0 {
		return false
	}
	recent := 0
	for _, at := range sc.reads {
		if !at.Before(now.Add(-r.Window)) {
			recent++
		}
	}
	// The reads expected within one Fresh period, at the rate seen over the window.
	return float64(recent)*float64(r.Fresh)/float64(r.Window) >= minSharedReads
}

// scope returns the scope's state, made on first use; r.mu is held. Once per Window it also
// drops what has not been read for a Window: the reads of deleted resources, the lists of
// clients replaced when credentials rotated.
func (r *SharedReads[T]) scope(s Scope, now time.Time) *scopeReads[T] {
	if r.scopes == nil {
		r.scopes = map[Scope]*scopeReads[T]{}
	}
	if now.Sub(r.swept) > r.Window {
		r.sweep(now)
	}
	sc, ok := r.scopes[s]
	if !ok {
		sc = &scopeReads[T]{reads: map[string]time.Time{}, wrote: map[string]written[T]{}}
		r.scopes[s] = sc
	}
	return sc
}

// sweep drops reads older than Window, writes older than Fresh and scopes left empty.
func (r *SharedReads[T]) sweep(now time.Time) {
	r.swept = now
	for k, sc := range r.scopes {
		for id, at := range sc.reads {
			if at.Before(now.Add(-r.Window)) {
				delete(sc.reads, id)
			}
		}
		for id, w := range sc.wrote {
			if w.at.Before(now.Add(-r.Fresh)) {
				delete(sc.wrote, id)
			}
		}
		if len(sc.reads) == 0 && len(sc.wrote) == 0 {
			delete(r.scopes, k)
		}
	}
}

func (r *SharedReads[T]) now() time.Time {
	return now(r.Now)
}
