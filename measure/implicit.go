package measure

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// An implicit family (a construction stored by its kind and params) is
// listed by its construction before the measures run on it, when it has
// at most construct.ListLimit quorums. Past that, [LoadOf] answers from
// the construction's closed form (a [quorum.LoadFormula]) and the other
// measures return a *construct.ListError (wrapping [set.ErrTooMany]).

// explicitFamily returns f with its quorums listed ([construct.Explicit]:
// f itself for a list or a threshold family).
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
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
	out, ok := closedForm(sys)
	if !ok {
		return nil, fmt.Errorf("%w; the closed form of the %s construction does not apply to these parameters", err, f.Kind)
	}
	return out, nil
}

// ClosedFormLoad returns the load of f from what its typed form
// ([construct.Typed]) knows without its quorums listed: an implicit
// family's construction's closed form (a [quorum.LoadFormula]), method
// MethodClosedForm; a threshold family's w/n, method MethodThreshold, as
// [LoadOf] gives it. ok is false for a list, when the construction has no
// closed form or it does not apply to these parameters, or when f is not
// a valid implicit family. It costs no search.
func ClosedFormLoad(f *set.Family) (l *Load, ok bool) {
	sys, err := construct.Typed(f)
	if err != nil {
		return nil, false
	}
	return closedForm(sys)
}

// closedForm is the load of sys from what it knows without its quorums:
// w/n for the threshold system of every w-subset of n nodes (a
// [quorum.Thresholder]; every node is in the same share of the quorums),
// with the network load w; otherwise its construction's closed form (a
// [quorum.LoadFormula]).
func closedForm(sys quorum.System) (*Load, bool) {
	if t, ok := sys.(quorum.Thresholder); ok {
		w, n := int64(t.Threshold()), int64(sys.N())
		l := &Load{Exact: big.NewRat(w, n), Method: MethodThreshold}
		l.Value, _ = l.Exact.Float64()
		l.NetworkLoad, l.NetworkLoadExact = float64(w), big.NewRat(w, 1)
		return l, true
	}
	c, ok := sys.(quorum.LoadFormula)
	if !ok {
		return nil, false
	}
	x, ok := c.ClosedFormLoad()
	if !ok {
		return nil, false
	}
	l := &Load{Exact: x, Method: MethodClosedForm}
	l.Value, _ = x.Float64()
	return l, true
}
