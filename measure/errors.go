package measure

import "fmt"

// Error reports a measure that could not be computed: a linear program too
// large to build ([ErrTooLarge]) or one the simplex method failed on
// ([ErrLP]). Msg says what went wrong without the package's name, so that
// a caller can print it after its own; Err is the cause, and errors.Is
// finds the sentinel through it.
type Error struct {
	Msg string
	Err error
}

// Error returns "measure: MSG".
func (e *Error) Error() string { return "measure: " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error whose Msg is formatted as [fmt.Errorf] does and
// whose cause holds every %w operand.
func errorf(format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	return &Error{Msg: w.Error(), Err: w}
}
