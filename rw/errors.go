package rw

import (
	"errors"
	"fmt"
)

// Error reports input the package refuses: a read fraction it cannot read,
// a strategy that is not one for the system. Op names what was being done
// ("strategy"), or is "" for parsing a workload; Msg says what is wrong
// without the package's name, so that a caller can print it after the
// flag or file it is about; Err is the cause, if any.
type Error struct {
	Op  string
	Msg string
	Err error
}

// Error returns "rw: OP: MSG", or "rw: MSG" without an Op.
func (e *Error) Error() string {
	if e.Op == "" {
		return "rw: " + e.Msg
	}
	return "rw: " + e.Op + ": " + e.Msg
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error for op whose Msg is formatted as [fmt.Errorf]
// does; a %w verb sets its Err.
func errorf(op, format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	return &Error{Op: op, Msg: w.Error(), Err: errors.Unwrap(w)}
}
