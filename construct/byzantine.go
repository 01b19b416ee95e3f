package construct

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// ByzantineSize returns the quorum size of the threshold Byzantine quorum
// systems of Malkhi and Reiter ("Byzantine quorum systems", Distributed
// Computing 11(4), 1998, Section 4): ⌈(n+2b+1)/2⌉ for a b-masking system,
// ⌈(n+b+1)/2⌉ for a b-dissemination system.
func ByzantineSize(n, b int, masking bool) int {
	if masking {
		return (n + 2*b + 2) / 2
	}
	return (n + b + 2) / 2
}

// Byzantine returns the threshold Byzantine quorum system over n nodes
// tolerating b faulty ones, in threshold form: every subset of
// [ByzantineSize](n, b, masking) nodes. Two quorums of size q meet in at
// least 2q − n nodes: ≥ 2b+1 for the masking size (a correct majority of
// the intersection outvotes b liars) and ≥ b+1 for dissemination (one
// correct node, whose self-verifying data cannot be forged). Some quorum
// must avoid any b nodes, n − b ≥ q, which needs n ≥ 4b+1 (masking) or
// n ≥ 3b+1 (dissemination) — Malkhi and Reiter's bounds; smaller n is
// refused.
func Byzantine(n, b int, masking bool) (*set.Family, error) {
	name, need := "dissemination", 3*b+1
	if masking {
		name, need = "masking", 4*b+1
	}
	switch {
	case b < 0:
		return nil, fmt.Errorf("construct: byzantine: b = %d must be at least 0", b)
	case n < 1 || n > set.MaxNodes:
		return nil, fmt.Errorf("construct: byzantine: n = %d is out of range 1..%d", n, set.MaxNodes)
	case n < need:
		return nil, fmt.Errorf("construct: byzantine: a b-%s system needs n ≥ %s = %d nodes; n = %d is too small for b = %d",
			name, map[bool]string{true: "4b+1", false: "3b+1"}[masking], need, n, b)
	}
	f := set.NewThreshold(n, ByzantineSize(n, b, masking))
	f.Kind = "byzantine"
	f.Params = set.Params{"n": n, "b": b, name: true}
	return f, nil
}

// MGridSide returns t = ⌈√(b+1)⌉, the number of rows and of columns in a
// quorum of the M-Grid for b.
func MGridSide(b int) int {
	t := 0
	for t*t < b+1 {
		t++
	}
	return t
}

// MGrid returns the M-Grid, a b-masking quorum system of the Malkhi–Reiter
// line of work (Malkhi, Reiter and Wool, "The load and availability of
// Byzantine quorum systems", SIAM J. Comput. 29(6), 2000): n = s² nodes in
// an s×s grid, numbered row by row, and a quorum is the union of
// t = ⌈√(b+1)⌉ full rows and t full columns. Two quorums meet in at least
// 2t² ≥ 2b+2 nodes (each one's rows cross the other's columns), and b nodes
// block at most b rows and b columns, so a quorum avoids them whenever
// s − b ≥ t, which MGrid requires (b ≤ (s−1)/2 is a simpler sufficient
// bound). n must be a perfect square. The family has C(s, t)² quorums; more
// than MaxCatalogueQuorums are refused.
func MGrid(n, b int) (*set.Family, error) {
	return mgrid(context.Background(), n, b)
}

// mgrid is [MGrid] watching ctx.
func mgrid(ctx context.Context, n, b int) (*set.Family, error) {
	if n < 1 || n > set.MaxNodes {
		return nil, fmt.Errorf("construct: mgrid: n = %d is out of range 1..%d", n, set.MaxNodes)
	}
	s := 0
	for s*s < n {
		s++
	}
	if s*s != n {
		return nil, fmt.Errorf("construct: mgrid: n = %d is not a square (the M-Grid is s×s)", n)
	}
	if b < 0 {
		return nil, fmt.Errorf("construct: mgrid: b = %d must be at least 0", b)
	}
	t := MGridSide(b)
	if s-b < t {
		return nil, fmt.Errorf("construct: mgrid: b = %d on a %d×%d grid: b faulty nodes can block %d rows, leaving fewer than the ⌈√(b+1)⌉ = %d a quorum needs (b ≤ %d here)",
			b, s, s, b, t, maxMGridB(s))
	}
	c := new(big.Int).Binomial(int64(s), int64(t))
	if err := checkCount(fmt.Sprintf("mgrid: n = %d, b = %d", n, b), c.Mul(c, c), n); err != nil {
		return nil, err
	}
	return collect(ctx, n, "mgrid", set.Params{"n": n, "b": b}, func(q *set.Set, emit func()) {
		combinations(s, t, func(rows []int) {
			combinations(s, t, func(cols []int) {
				q.Clear()
				for _, r := range rows {
					for c := range s {
						q.Add(r*s + c)
					}
				}
				for _, c := range cols {
					for r := range s {
						q.Add(r*s + c)
					}
				}
				emit()
			})
		})
	})
}

// maxMGridB returns the largest b the s×s M-Grid tolerates.
func maxMGridB(s int) int {
	b := -1
	for s-(b+1) >= MGridSide(b+1) {
		b++
	}
	return b
}

var byzantineSpec = Spec{
	Name:    "byzantine",
	Summary: "threshold b-masking (n ≥ 4b+1) or b-dissemination (n ≥ 3b+1) quorums (threshold)",
	Source:  "Malkhi, Reiter 1998",
	Params: []Param{
		{Name: "n", Usage: "number of nodes", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "b", Usage: "faulty nodes tolerated", Type: Int, Required: true, Min: 0, Max: set.MaxNodes},
		{Name: "masking", Usage: "quorums meet in ≥ 2b+1 nodes: size ⌈(n+2b+1)/2⌉", Type: Bool, Default: false},
		{Name: "dissemination", Usage: "quorums meet in ≥ b+1 nodes: size ⌈(n+b+1)/2⌉", Type: Bool, Default: false},
	},
	Build: func(a Args) (set.System, error) {
		if err := exactlyOne("byzantine", a, []string{"masking"}, []string{"dissemination"}); err != nil {
			return set.System{}, err
		}
		return system(Byzantine(a.Int("n"), a.Int("b"), a.Bool("masking")))
	},
}

var mgridSpec = Spec{
	Name:    "mgrid",
	Summary: "M-Grid: ⌈√(b+1)⌉ rows and as many columns of a square grid (b-masking)",
	Source:  "Malkhi, Reiter, Wool 2000",
	Layout:  mgridLayout,
	Params: []Param{
		{Name: "n", Usage: "number of nodes (a square)", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "b", Usage: "faulty nodes tolerated", Type: Int, Default: 0, Min: 0, Max: set.MaxNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		return system(mgrid(ctx, a.Int("n"), a.Int("b")))
	},
}

// BoostFPP returns the boostFPP b-masking system (Malkhi, Reiter and Wool,
// SIAM J. Comput. 29(6), 2000): every point of the projective
// plane of order q becomes a group of 4b+1 nodes (point p, 0-based, holds
// nodes p(4b+1) … p(4b+1)+4b), and a quorum is a line together with, in
// the group of each of its q+1 points, a threshold masking quorum of 3b+1
// of the 4b+1 nodes. Two lines share a point, where the two groups'
// quorums share at least 2b+1 nodes; b faulty nodes leave at least 3b+1
// correct nodes in every group, so every line keeps a correct quorum.
// b = 0 gives the plane itself. The family has (q²+q+1)·C(4b+1, 3b+1)^(q+1)
// quorums; more than MaxCatalogueQuorums are refused.
func BoostFPP(q, b int) (*set.Family, error) {
	return boostFPP(context.Background(), q, b)
}

// boostFPP is [BoostFPP] watching ctx.
func boostFPP(ctx context.Context, q, b int) (*set.Family, error) {
	if b < 0 {
		return nil, fmt.Errorf("construct: boostfpp: b = %d must be at least 0", b)
	}
	plane, err := projectivePlane(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("construct: boostfpp: %w", err)
	}
	g, w := 4*b+1, 3*b+1
	points := plane.N
	if int64(points)*int64(g) > set.MaxNodes {
		return nil, fmt.Errorf("construct: boostfpp: more than %d nodes", set.MaxNodes)
	}
	n := points * g
	count := tooMany()
	if q+1 <= 1<<10 && g <= 1<<10 {
		count = bigPow(new(big.Int).Binomial(int64(g), int64(w)), q+1)
		count.Mul(count, big.NewInt(int64(points)))
	}
	if err := checkCount(fmt.Sprintf("boostfpp: order %d, b = %d", q, b), count, n); err != nil {
		return nil, err
	}
	var subsets [][]int // the w-subsets of a group, 0-based within it
	combinations(g, w, func(c []int) { subsets = append(subsets, append([]int(nil), c...)) })
	return collect(ctx, n, "boostfpp", set.Params{"order": q, "b": b}, func(s *set.Set, emit func()) {
		for i := range plane.Quorums {
			pts := plane.Quorums[i].Elements()
			var rec func(k int)
			rec = func(k int) {
				if k == len(pts) {
					emit()
					return
				}
				base := pts[k] * g
				for _, sub := range subsets {
					for _, v := range sub {
						s.Add(base + v)
					}
					rec(k + 1)
					for _, v := range sub {
						s.Remove(base + v)
					}
				}
			}
			rec(0)
		}
	})
}

var boostFPPSpec = Spec{
	Name:    "boostfpp",
	Summary: "boostFPP: the lines of PG(2,q) over groups of 4b+1 nodes, 3b+1 of each (b-masking)",
	Source:  "Malkhi, Reiter, Wool 2000",
	Params: []Param{
		{Name: "order", Usage: "prime-power order q of the plane", Type: Int, Default: 2, Min: 1, Max: MaxPlaneOrder},
		{Name: "b", Usage: "faulty nodes tolerated", Type: Int, Default: 1, Min: 0, Max: 1 << 10},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		return system(boostFPP(ctx, a.Int("order"), a.Int("b")))
	},
}
