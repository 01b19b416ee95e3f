package main

import (
	"context"

	"github.com/coterie-dev/coterie/set"
)

// findDisjoint is verify.FindDisjoint once the verifier lands; until then a
// pairwise check for coteries only.
func findDisjoint(ctx context.Context, f *set.Family, t int) ([]int, error) {
	if t != 2 {
		return nil, nil
	}
	for i := range f.Quorums {
		for j := range i {
			if !set.Intersects(&f.Quorums[i], &f.Quorums[j]) {
				return []int{j, i}, nil
			}
		}
	}
	return nil, ctx.Err()
}
