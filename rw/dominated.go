package rw

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// Nondominated reports whether side is as large as it can be given other
// (the other side of s): every set that meets all quorums of other holds a
// quorum of side. When it is not, witness is a minimal transversal of
// other that holds no quorum of side, which could be added to side. It
// walks the minimal transversals of other (the minimal quorums of its
// dual), at most limit of them; past that the error wraps
// [set.ErrTooMany]. Its cost is exponential in the worst case.
func (s *System) Nondominated(ctx context.Context, side, other *Side, limit int) (ok bool, witness *set.Set, err error) {
	seen := 0
	for t := range other.Expr.Dual().MinimalQuorums() {
		if err := ctx.Err(); err != nil {
			return false, nil, err
		}
		if seen++; seen > limit {
			return false, nil, fmt.Errorf("rw: more than %d minimal transversals to check: %w", limit, set.ErrTooMany)
		}
		if !side.IsQuorum(t) {
			return false, t, nil
		}
	}
	return true, nil, nil
}
