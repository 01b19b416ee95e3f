package testsys

import "context"

// StopAfter is a context whose Err is nil for its first Left calls, then
// context.Canceled: a cancellation in the middle of a computation that
// polls Err, after a fixed amount of work rather than of time. Calls
// counts the calls to Err.
type StopAfter struct {
	context.Context
	Calls, Left int
}

// Err returns nil while Left lasts, then context.Canceled.
func (c *StopAfter) Err() error {
	c.Calls++
	if c.Left == 0 {
		return context.Canceled
	}
	c.Left--
	return nil
}
