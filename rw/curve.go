package rw

import (
	"context"
	"fmt"
	"math/big"
)

// LoadCurve returns the optimal load and capacity of s at each read
// fraction (each fraction on its own, the strategy re-optimised), with the
// other options of opts (f, capacities, limits).
func (s *System) LoadCurve(ctx context.Context, fractions []*big.Rat, opts Options) (load, capacity []*big.Rat, err error) {
	for _, fr := range fractions {
		o := opts
		o.Workload = Fixed(fr)
		_, m, err := s.Optimal(ctx, o)
		if err != nil {
			return nil, nil, fmt.Errorf("rw: read fraction %s: %w", fr.RatString(), err)
		}
		load, capacity = append(load, m.Load), append(capacity, m.Capacity)
	}
	return load, capacity, nil
}
