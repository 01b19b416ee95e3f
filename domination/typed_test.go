package domination

import (
	"context"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// The closed forms a threshold family's typed form answers by (its minimal
// transversals, their count, in one piece or not, the smallest one, the
// witness check) agree with the MMCS search and the checks on the same
// quorums written out, for every w-of-n with n ≤ 6 (k = 1, 2 for the
// witness check, on every subset of the nodes).
func TestThresholdClosedFormsAgreeWithList(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 6; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			g := uniform(t, n, w, 1)
			var a, b [][]int
			for s, err := range MinimalTransversals(ctx, f, Options{}) {
				if err != nil {
					t.Fatal(err)
				}
				a = append(a, s.Elements())
			}
			for s, err := range MinimalTransversals(ctx, g, Options{}) {
				if err != nil {
					t.Fatal(err)
				}
				b = append(b, s.Elements())
			}
			slices.SortFunc(a, slices.Compare)
			slices.SortFunc(b, slices.Compare)
			if !slices.EqualFunc(a, b, slices.Equal) {
				t.Fatalf("%d-of-%d: minimal transversals %v, listed %v", w, n, a, b)
			}
			c, err := CountTransversals(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.Int64() != int64(len(b)) || c.Smallest != len(b[0]) || c.BySize[c.Smallest].Int64() != int64(len(b)) {
				t.Errorf("%d-of-%d: count %v (smallest %d), listed %d of %d nodes", w, n, c.Total, c.Smallest, len(b), len(b[0]))
			}
			pc, err := CountTransversalPieces(ctx, f, func(int) bool { return true }, nil, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			pg, err := CountTransversalPieces(ctx, g, func(int) bool { return true }, nil, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pc.Count().Total.Cmp(pg.Count().Total) != 0 {
				t.Errorf("%d-of-%d: pieces count %v, listed %v", w, n, pc.Count().Total, pg.Count().Total)
			}
			m, err := MinTransversal(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if m.Len() != len(b[0]) || !slices.ContainsFunc(b, func(x []int) bool { return slices.Equal(x, m.Elements()) }) {
				t.Errorf("%d-of-%d: smallest transversal %v, listed ones %v", w, n, m, b)
			}
			if _, decided, err := DisjointPair(ctx, f); decided || err != nil {
				t.Errorf("%d-of-%d: DisjointPair decided %v, %v (the threshold has no table)", w, n, decided, err)
			}
			if _, _, err := MakeND(ctx, f); err == nil {
				t.Errorf("%d-of-%d: MakeND took a threshold family", w, n)
			}
			for k := 1; k <= 2; k++ {
				fk, gk := set.NewThreshold(n, w), uniform(t, n, w, k)
				fk.K = k
				if _, arbiter := ThresholdDominated(n, w, k); !arbiter {
					continue
				}
				for x := range 1 << n {
					h := set.New(n)
					for v := range n {
						if x&(1<<v) != 0 {
							h.Add(v)
						}
					}
					ef, eg := CheckWitness(ctx, fk, h), CheckWitness(ctx, gk, h)
					if (ef == nil) != (eg == nil) {
						t.Errorf("%d-of-%d k=%d: witness %v: threshold %v, listed %v", w, n, k, h, ef, eg)
					}
				}
			}
		}
	}
}
