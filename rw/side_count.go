package rw

import (
	"context"
	"math/big"
)

// Count returns the number of minimal quorums of the side: the list's
// length when it is listed, by formula for a read-once expression, and
// otherwise by listing them, which ctx stops.
func (sd *Side) Count(ctx context.Context) (*big.Int, error) {
	if sd.List != nil {
		return sd.List.Count(), nil
	}
	if c, ok := sd.Expr.Count(); ok {
		return c, nil
	}
	n := int64(0)
	for range sd.Expr.MinimalQuorums() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return big.NewInt(n), nil
}
