package protocol

import (
	"errors"
	"fmt"
)

// Error is an error of this package: a distribution or load that does not
// parse, a [Config] or [ExploreConfig] out of range, a system the simulator
// or the explorer does not take. Msg says what is wrong without the
// "protocol: " prefix, so that a caller can put it after the name of its own
// option; Err is the cause, if any (a [context] error, [set.ErrMemoryBudget]).
//
// Test for it with errors.As.
type Error struct {
	Msg string
	Err error
}

// Error returns "protocol: " followed by Msg.
func (e *Error) Error() string { return "protocol: " + e.Msg }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error whose Msg is formatted as [fmt.Errorf] does; a %w
// verb sets its Err.
func errorf(format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	return &Error{Msg: w.Error(), Err: errors.Unwrap(w)}
}
