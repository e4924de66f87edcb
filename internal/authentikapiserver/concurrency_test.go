package authentikapiserver

import (
	"fmt"
	"sync"
	"testing"

	api "goauthentik.io/api/v3"
)

// Parallel clients (controllers reconcile concurrently) must neither race
// nor break uniqueness: exactly one of N identical creates wins.
func TestConcurrentCreates(t *testing.T) {
	e := newEnv(t)
	const n = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*api.NewApplicationRequest(fmt.Sprint("n", i), "same")).Execute()
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
			if _, _, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Search("same").Execute(); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("%d creates of one slug succeeded, want 1", wins)
	}
}
