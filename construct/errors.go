package construct

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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

// ComboError reports parameters of a construction given in a combination
// it does not take: two that exclude each other, or one without another it
// needs. Given lists the parameters that were set; Want lists the
// combinations the construction takes, each the parameters that go
// together (wall: {widths} or {cwlog, n}), exactly one of which must be
// given in full.
//
// Test for it with errors.As: the command line names the flags with
// [ComboError.Describe].
type ComboError struct {
	Kind  string
	Given []string
	Want  [][]string
}

// Error returns "construct: KIND: " and the description of [ComboError.Describe]
// with the parameters by their names.
func (e *ComboError) Error() string {
	return "construct: " + e.Kind + ": " + e.Describe(func(p string) string { return p })
}

// Describe says what is wrong, calling each parameter name(p): "cwlog
// needs n" when the given parameters are part of one combination, else
// "give exactly one of widths and cwlog n".
func (e *ComboError) Describe(name func(param string) string) string {
	names := func(ps []string) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = name(p)
		}
		return strings.Join(out, " ")
	}
	touched := 0
	var missing []string
	for _, w := range e.Want {
		if slices.ContainsFunc(w, func(p string) bool { return slices.Contains(e.Given, p) }) {
			touched++
			missing = slices.DeleteFunc(slices.Clone(w), func(p string) bool { return slices.Contains(e.Given, p) })
		}
	}
	if touched == 1 && len(missing) > 0 {
		return names(e.Given) + " needs " + names(missing)
	}
	alts := make([]string, len(e.Want))
	for i, w := range e.Want {
		alts[i] = names(w)
	}
	last := len(alts) - 1
	if last < 1 {
		return "give " + strings.Join(alts, "")
	}
	return "give exactly one of " + strings.Join(alts[:last], ", ") + " and " + alts[last]
}

// exactlyOne returns nil when the parameters of a that are given (a Bool
// only when true) are exactly one of the combinations want, else a
// [*ComboError].
func exactlyOne(kind string, a Args, want ...[]string) error {
	var given []string
	for _, w := range want {
		for _, p := range w {
			if v, isBool := a.vals[p].(bool); a.IsSet(p) && (!isBool || v) {
				given = append(given, p)
			}
		}
	}
	if slices.ContainsFunc(want, func(w []string) bool { return slices.Equal(w, given) }) {
		return nil
	}
	return &ComboError{Kind: kind, Given: given, Want: want}
}

// reason is what err says without this package's prefix and the
// construction's name: the Msg of an [*Error], the description of a
// [*ComboError].
func reason(err error) string {
	var ce *Error
	var combo *ComboError
	switch {
	case errors.As(err, &combo):
		return combo.Describe(func(p string) string { return p })
	case errors.As(err, &ce):
		return ce.Msg
	}
	return err.Error()
}

// Describe says what err is about, without this package's prefix and
// without op when the error names it, so that the message can follow the
// name of the file, flag or construction it concerns: "q = 8 must be odd
// and at least 3", "wall: cwlog needs n". Parameters are called
// name(param) (a command line passes "--q"); a nil name keeps their names.
// An error that is not one of this package's is described by its text.
func Describe(err error, op string, name func(param string) string) string {
	if name == nil {
		name = func(p string) string { return p }
	}
	prefix := func(kind, msg string) string {
		if kind == "" || kind == op {
			return msg
		}
		return kind + ": " + msg
	}
	var ce *Error
	if errors.As(err, &ce) {
		return prefix(ce.Op, ce.Msg)
	}
	var pe *ParamError
	if errors.As(err, &pe) {
		if pe.Value == nil {
			return prefix(pe.Kind, fmt.Sprintf("%s %s", name(pe.Param), pe.Reason))
		}
		return prefix(pe.Kind, fmt.Sprintf("%s = %v %s", name(pe.Param), pe.Value, pe.Reason))
	}
	var combo *ComboError
	if errors.As(err, &combo) {
		return prefix(combo.Kind, combo.Describe(name))
	}
	return err.Error()
}

// Message is the error's text without this package's prefix:
// [Describe](e, "", nil). Readers that cannot import construct find it
// with errors.As and an interface{ Message() string }.
func (e *ParamError) Message() string { return Describe(e, "", nil) }

// Message is the error's text without this package's prefix.
func (e *Error) Message() string { return Describe(e, "", nil) }

// Message is the error's text without this package's prefix.
func (e *ComboError) Message() string { return Describe(e, "", nil) }
