package construct

import (
	"errors"
	"fmt"
)

// ParamError reports a parameter a construction cannot take. Param is the
// parameter's name as the construction's [Spec] declares it ("order", "q",
// "n", "rows"); Value is the value given, or nil when it is missing; Reason
// says what is wrong, as a phrase that follows the value ("must be odd and
// at least 3", "is out of range 1..1024"). Err, if not nil, is the cause
// (such as the galois error naming the nearest prime powers).
//
// Test for it with errors.As: the command line uses it to name the flag
// that set the parameter.
type ParamError struct {
	Kind   string // the construction: "fpp", "cube", ...
	Param  string
	Value  any
	Reason string
	Err    error
}

// Error returns "construct: KIND: PARAM = VALUE REASON", or
// "construct: KIND: PARAM REASON" when the value is missing.
func (e *ParamError) Error() string {
	if e.Value == nil {
		return fmt.Sprintf("construct: %s: %s %s", e.Kind, e.Param, e.Reason)
	}
	return fmt.Sprintf("construct: %s: %s = %v %s", e.Kind, e.Param, e.Value, e.Reason)
}

// Unwrap returns the cause, if any.
func (e *ParamError) Unwrap() error { return e.Err }

// paramErrorf returns a *ParamError for kind's parameter param, given
// value, with the reason formatted from format and args.
func paramErrorf(kind, param string, value any, format string, args ...any) error {
	return &ParamError{Kind: kind, Param: param, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// Error reports a construction's refusal that is not about one parameter: a
// system too large to hold, inputs that do not fit together (a join of a
// coterie with a 2-arbiter), a cancelled search. Op names the operation
// ("join", "degenerate", "cube"), or is "" for a parse error; Msg says what
// is wrong; Err is the cause, if any (a [context] error, [set.ErrTooMany]).
//
// Test for it with errors.As: the command line prints Msg after the name of
// the file or flag it is about.
type Error struct {
	Op  string
	Msg string
	Err error
}

// Error returns "construct: OP: MSG", or "construct: MSG" without an Op.
func (e *Error) Error() string {
	if e.Op == "" {
		return "construct: " + e.Msg
	}
	return "construct: " + e.Op + ": " + e.Msg
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error for op whose Msg is formatted as [fmt.Errorf]
// does; a %w verb sets its Err.
func errorf(op, format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	return &Error{Op: op, Msg: w.Error(), Err: errors.Unwrap(w)}
}
