package testsys

import (
	"context"
	"sync"
)

// StopAfter is a context whose Err is nil for its first Left calls, then
// context.Canceled: a cancellation in the middle of a computation that
// polls Err, after a fixed amount of work rather than of time. Calls
// counts the calls to Err. Several goroutines may call Err at once; read
// Calls and Left once the computation has returned.
type StopAfter struct {
	context.Context
	Calls, Left int

	mu sync.Mutex
}

// Err returns nil while Left lasts, then context.Canceled.
func (c *StopAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Calls++
	if c.Left == 0 {
		return context.Canceled
	}
	c.Left--
	return nil
}
