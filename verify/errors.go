package verify

import "fmt"

// Error reports a check that could not be done: a search that gave up
// ([ErrSearchLimit]), a cancelled context, a bad argument. Msg says what
// went wrong without the package's name, so that a caller can print it
// after its own; Err is the cause, and errors.Is finds a sentinel or a
// context error through it.
type Error struct {
	Msg string
	Err error
}

// Error returns "verify: MSG".
func (e *Error) Error() string { return "verify: " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error whose Msg is formatted as [fmt.Errorf] does and
// whose cause holds every %w operand.
func errorf(format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	return &Error{Msg: w.Error(), Err: w}
}
