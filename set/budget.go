package set

import "errors"

// ErrMemoryBudget is wrapped by the error of a computation that stopped
// because going on would take more memory than its budget allows (an
// Options.MaxMemory in the package that runs it). Test for it with
// errors.Is. A computation that stops this way returns, where it has one,
// the part of its result it had proved, marked incomplete, exactly as it
// does on cancellation.
var ErrMemoryBudget = errors.New("memory budget exceeded")
