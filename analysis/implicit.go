package analysis

import (
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
)

// Implicit is what the construction of an implicit family (a kind and its
// params, its quorums not listed) knows without listing them.
type Implicit struct {
	F *set.Family
	// Count is the number of quorums; nil when it is not known without
	// listing them (weighted voting).
	Count *big.Int
	// MinSize and MaxSize are the sizes of the smallest and largest
	// quorums, when Sized.
	MinSize, MaxSize int
	Sized            bool
	// Load is the closed-form load (method measure.MethodClosedForm);
	// nil when the construction has none for these parameters.
	Load *measure.Load
}

// ImplicitFigures returns the figures of f that its construction gives:
// the count, the quorum sizes and the closed-form load. Node degrees,
// messages and resilience need the quorums and are not among them. It
// costs no search.
func ImplicitFigures(f *set.Family) *Implicit {
	r := &Implicit{F: f}
	if c, ok := construct.Count(f); ok {
		r.Count = c
	}
	r.MinSize, r.MaxSize, r.Sized = construct.Sizes(f)
	if l, ok := measure.ClosedFormLoad(f); ok {
		r.Load = l
	}
	return r
}
