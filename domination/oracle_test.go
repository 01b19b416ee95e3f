package domination

import (
	"context"

	"github.com/coterie-dev/coterie/set"
)

// Until the verifier lands, the tests answer findDisjoint by brute force:
// t quorums (distinct, increasing positions) with an empty intersection.
func init() {
	findDisjoint = func(ctx context.Context, f *set.Family, t int) ([]int, error) {
		m := len(f.Quorums)
		t = min(t, m)
		idx := make([]int, 0, t)
		var rec func(start int, acc *set.Set) bool
		rec = func(start int, acc *set.Set) bool {
			if len(idx) == t {
				return acc.IsEmpty()
			}
			for i := start; i < m; i++ {
				var next set.Set
				if acc == nil {
					next.Copy(&f.Quorums[i])
				} else {
					next.Intersect(acc, &f.Quorums[i])
				}
				idx = append(idx, i)
				if rec(i+1, &next) {
					return true
				}
				idx = idx[:len(idx)-1]
			}
			return false
		}
		if t == 0 || !rec(0, nil) {
			return nil, ctx.Err()
		}
		return idx, nil
	}
}
