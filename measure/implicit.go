package measure

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// An implicit family (a construction stored by its kind and params) is
// listed by its construction before the measures run on it, when it has
// at most construct.ListLimit quorums. Past that, [LoadOf] answers from
// the construction's closed form (a [quorum.LoadFormula]) and the other
// measures return a *construct.ListError (wrapping [set.ErrTooMany]).

// explicitFamily returns f with its quorums listed (f itself unless
// implicit).
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
	if !f.IsImplicit() {
		return f, nil
	}
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	return g, nil
}

// implicitLoad is the load of an implicit family too large to list, from
// its construction's closed form; err is the refusal to list it when the
// construction has none.
func implicitLoad(f *set.Family, err error) (*Load, error) {
	var le *construct.ListError
	if !errors.As(err, &le) {
		return nil, err
	}
	sys, terr := construct.Typed(f)
	if terr != nil {
		return nil, err
	}
	if _, ok := sys.(quorum.LoadFormula); !ok {
		return nil, fmt.Errorf("%w; the %s construction has no closed form for its load", err, f.Kind)
	}
	out, ok := ClosedFormLoad(f)
	if !ok {
		return nil, fmt.Errorf("%w; the closed form of the %s construction does not apply to these parameters", err, f.Kind)
	}
	return out, nil
}

// ClosedFormLoad returns the load of the implicit family f from its
// construction's closed form (a [quorum.LoadFormula]), method
// MethodClosedForm, without listing its quorums; ok is false when the
// construction has none, it does not apply to these parameters, or f is
// not a valid implicit family. It costs no search.
func ClosedFormLoad(f *set.Family) (l *Load, ok bool) {
	if !f.IsImplicit() {
		return nil, false
	}
	sys, err := construct.Typed(f)
	if err != nil {
		return nil, false
	}
	c, ok := sys.(quorum.LoadFormula)
	if !ok {
		return nil, false
	}
	x, ok := c.ClosedFormLoad()
	if !ok {
		return nil, false
	}
	l = &Load{Exact: x, Method: MethodClosedForm}
	l.Value, _ = x.Float64()
	return l, true
}
