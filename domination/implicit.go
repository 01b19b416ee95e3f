package domination

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// An implicit family (a construction stored by its kind and params) is
// listed by its construction before the algorithms run on it, when it
// has at most construct.ListLimit quorums; past that, Decide answers from
// a theorem the construction knows (a [quorum.DominationTheorem]) and
// everything else returns a *construct.ListError (wrapping
// [set.ErrTooMany]).

// explicitFamily returns f with its quorums listed ([construct.Explicit]:
// f itself for a list or a threshold family).
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, fmt.Errorf("domination: %w", err)
	}
	return g, nil
}

// decideUnlisted is Decide on a family whose quorums were not listed (err
// says why): by a theorem of its construction when there are too many.
func decideUnlisted(f *set.Family, err error) (*Result, error) {
	var le *construct.ListError
	if !errors.As(err, &le) {
		return nil, err
	}
	if r, ok := ByTheorem(f); ok {
		return r, nil
	}
	return nil, fmt.Errorf("%w; no theorem gives the verdict of this %s construction", err, f.Kind)
}

// ByTheorem returns the verdict on f that a theorem of its construction
// gives without its quorums (Result.Theorem cites it), when one applies.
func ByTheorem(f *set.Family) (*Result, bool) {
	sys, err := construct.Typed(f)
	if err != nil {
		return nil, false
	}
	t, ok := sys.(quorum.DominationTheorem)
	if !ok {
		return nil, false
	}
	cite, ok := t.NondominatedByTheorem()
	if !ok {
		return nil, false
	}
	return &Result{Nondominated: true, K: f.K, Theorem: cite}, true
}
