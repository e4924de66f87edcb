package adoption

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// Deletions remembers, per resource, the objects this process has just deleted.
//
// crossplane-runtime's reconciler confirms a delete by observing the resource once more before
// it removes the finalizer. The system has already answered that question: its delete said the
// object is gone (or was gone before). Reading it again costs the system a request per
// resource, which is a third of a deletion's reads on Keystone. So Observe of a resource being
// deleted takes the answer from here, once.
//
// What it cannot know it leaves to the system: a resource recreated under the same name has
// another UID, a process that restarted has an empty memory, and both read as before. An object
// made by hand under the same ID in between (a role assignment's key can be) is not deleted
// again: it was never this resource's.
type Deletions struct {
	mu      sync.Mutex
	deleted map[deletion]struct{}
}

type deletion struct {
	uid types.UID
	id  string
}

// deletionMemory bounds the memory: past it, everything is forgotten, and the resources whose
// deletes it held confirm them by reading, as without it.
const deletionMemory = 8192

// NewDeletions returns an empty memory.
func NewDeletions() *Deletions {
	return &Deletions{deleted: map[deletion]struct{}{}}
}

// record notes that the resource with uid deleted its object id.
func (d *Deletions) record(uid types.UID, id string) {
	if d == nil || uid == "" || id == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.deleted) >= deletionMemory {
		clear(d.deleted)
	}
	d.deleted[deletion{uid, id}] = struct{}{}
}

// take reports whether the resource with uid deleted its object id, and forgets it: only the
// confirmation right after the delete is answered from memory.
func (d *Deletions) take(uid types.UID, id string) bool {
	if d == nil || uid == "" || id == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	k := deletion{uid, id}
	_, ok := d.deleted[k]
	delete(d.deleted, k)
	return ok
}
