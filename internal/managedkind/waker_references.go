package managedkind

import "github.com/crossplane-contrib/provider-identity/internal/provenance"

// anyName stands for every resource of a kind in a namespace: a selector that matched
// nothing resolvable waits for any of them to change.
const anyName = "*"

// Changes returns a mark to pass to WaitForReferences or WaitFor: take it before reading what
// a resource references, or what its deletion waits for.
func (w *Waker) Changes() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changes
}

// WaitForReferences records that the resource of kind in namespace with name could not
// resolve its references to targets (as provenance.ResourceName writes them; a name of
// anyName for a selector), read after mark (see Changes), replacing what it waited for
// before. It is woken when any one of them changes, at once if one changed after mark: the
// read may have missed that change (the referenced resource got its ID while the reference
// was being resolved), and no later change may come.
func (w *Waker) WaitForReferences(kind, namespace, name string, targets []string, mark uint64) {
	w.mu.Lock()
	wt := waiter{kind, namespace, name}
	w.forgetReferencesLocked(wt)
	for _, t := range targets {
		if w.changedAt[t] > mark {
			w.mu.Unlock()
			w.wake([]waiter{wt})
			return
		}
	}
	defer w.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	for _, t := range targets {
		if w.referrers[t] == nil {
			w.referrers[t] = map[waiter]bool{}
		}
		w.referrers[t][wt] = true
	}
	w.referenced[wt] = targets
}

// ReferencesResolved records that the resource's references resolved (or that it is gone):
// it waits for nothing to change any more.
func (w *Waker) ReferencesResolved(kind, namespace, name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.forgetReferencesLocked(waiter{kind, namespace, name})
}

// Deleted forgets when the resource of groupKind in namespace with name last changed, and
// what its deletion waited for, so that what the Waker remembers stays bounded by the
// resources that exist, and a resource created again under its name is not held to the
// waiting deletions' slow retries (see waitingLimiter).
func (w *Waker) Deleted(groupKind, namespace, name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.changedAt, provenance.ResourceName(groupKind, namespace, name))
	delete(w.refresh, waiter{groupKind, namespace, name})
	w.forgetWaitLocked(waiter{groupKind, namespace, name})
}

func (w *Waker) forgetReferencesLocked(wt waiter) {
	for _, t := range w.referenced[wt] {
		delete(w.referrers[t], wt)
		if len(w.referrers[t]) == 0 {
			delete(w.referrers, t)
		}
	}
	delete(w.referenced, wt)
}

// Changed records that the resource of groupKind in namespace with name was created or had
// its metadata changed (an external name set, say), and wakes the resources whose references
// to it, or to any of its kind in its namespace, did not resolve.
func (w *Waker) Changed(groupKind, namespace, name string) {
	w.mu.Lock()
	w.changes++
	var wake []waiter
	// A resource created again under the name of a deleted one is no longer gone.
	delete(w.goneAt, provenance.ResourceName(groupKind, namespace, name))
	for _, t := range []string{provenance.ResourceName(groupKind, namespace, name), provenance.ResourceName(groupKind, namespace, anyName)} {
		w.changedAt[t] = w.changes
		for wt := range w.referrers[t] {
			wake = append(wake, wt)
		}
	}
	for _, wt := range wake {
		w.forgetReferencesLocked(wt)
	}
	w.mu.Unlock()
	w.wake(wake)
}
