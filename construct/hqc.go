package construct

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// HQCCount returns the number of quorums of [HQC](levels): at each level,
// C(g, ⌊g/2⌋+1) choices of subgroups, each with its own quorum; past
// 2^4096 it returns 2^4096 instead.
func HQCCount(levels []int) *big.Int {
	c := big.NewInt(1)
	for i := len(levels) - 1; i >= 0; i-- {
		g := levels[i]
		m := g/2 + 1
		if g > 1<<10 || (c.BitLen()+1)*m > 1<<12 {
			return tooMany()
		}
		c = new(big.Int).Mul(new(big.Int).Binomial(int64(g), int64(m)), bigPow(c, m))
	}
	return c
}

// HQC returns Kumar's hierarchical quorum consensus coterie ("Hierarchical
// quorum consensus: a new algorithm for managing replicated data", IEEE
// Trans. Computers 40(9), 1991) with group sizes levels = g_1, …, g_l: the
// n = g_1⋯g_l nodes are the leaves of a tree whose root has g_1 children,
// each of those g_2 children, and so on; the leaves under a level-i subtree
// are consecutive, node v (0-based) having the mixed-radix digits of v as
// its path. A quorum of a subtree is the union of quorums of a majority,
// ⌊g/2⌋+1, of its g child subtrees, and a leaf's quorum is itself. Two
// majorities of the same children share a child, so any two quorums meet.
//
// Every quorum has Π(⌊g_i/2⌋+1) nodes. The family has [HQCCount](levels)
// quorums; HQC refuses more than MaxCatalogueQuorums.
func HQC(levels []int) (*set.Family, error) {
	return hqc(context.Background(), levels)
}

// hqc is [HQC] watching ctx.
func hqc(ctx context.Context, levels []int) (*set.Family, error) {
	if len(levels) == 0 {
		return nil, fmt.Errorf("construct: hqc: no levels")
	}
	n := 1
	for _, g := range levels {
		if g < 1 {
			return nil, fmt.Errorf("construct: hqc: group size %d: must be at least 1", g)
		}
		n *= g
		if n > set.MaxNodes {
			return nil, fmt.Errorf("construct: hqc: levels %s: more than %d nodes", shortInts(levels), set.MaxNodes)
		}
	}
	what := "hqc: levels " + shortInts(levels)
	if err := checkCount(what, HQCCount(levels), n); err != nil {
		return nil, err
	}
	params := set.Params{"levels": joinInts(levels)}
	return collect(ctx, n, "hqc", params, func(s *set.Set, emit func()) {
		var rec func(level, lo, size int, k func())
		rec = func(level, lo, size int, k func()) {
			if level == len(levels) {
				s.Add(lo)
				k()
				s.Remove(lo)
				return
			}
			g := levels[level]
			sub := size / g
			combinations(g, g/2+1, func(c []int) {
				var each func(i int)
				each = func(i int) {
					if i == len(c) {
						k()
						return
					}
					rec(level+1, lo+c[i]*sub, sub, func() { each(i + 1) })
				}
				each(0)
			})
		}
		rec(0, 0, n, emit)
	})
}

var hqcSpec = Spec{
	Name:    "hqc",
	Summary: "hierarchical quorum consensus: a majority of groups at every level",
	Source:  "Kumar 1991",
	Layout:  named("hqc"),
	Params: []Param{
		{Name: "levels", Usage: "group sizes from the top level down, such as 3,3,3", Type: String, Required: true},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		levels, err := ParseInts("hqc", "levels", a.String("levels"), 1)
		if err != nil {
			return set.System{}, err
		}
		return system(hqc(ctx, levels))
	},
	Typed: func(a Args) (quorum.System, error) {
		levels, err := ParseInts("hqc", "levels", a.String("levels"), 1)
		if err != nil {
			return nil, err
		}
		return NewHQCSystem(levels)
	},
}

// HQCSystem is [HQC] as a typed construction.
type HQCSystem struct {
	implicitBase
	Levels []int
}

// NewHQCSystem returns Kumar's hierarchical quorum consensus with group
// sizes levels.
func NewHQCSystem(levels []int) (*HQCSystem, error) {
	if len(levels) == 0 {
		return nil, fmt.Errorf("construct: hqc: no levels")
	}
	n := 1
	for _, g := range levels {
		if g < 1 {
			return nil, fmt.Errorf("construct: hqc: group size %d: must be at least 1", g)
		}
		n *= g
		if n > set.MaxNodes {
			return nil, paramErrorf("hqc", "levels", joinInts(levels), "makes more than %d nodes", set.MaxNodes)
		}
	}
	return &HQCSystem{implicitBase{kind: "hqc", params: set.Params{"levels": joinInts(levels)}, n: n}, slices.Clone(levels)}, nil
}

// HasQuorum reports whether a majority of the top groups are live, each
// by a majority of its subgroups, down to the nodes.
func (s *HQCSystem) HasQuorum(live *set.Set) bool {
	var rec func(level, lo, size int) bool
	rec = func(level, lo, size int) bool {
		if level == len(s.Levels) {
			return live.Has(lo)
		}
		g, up := s.Levels[level], 0
		sub := size / g
		for j := range g {
			if rec(level+1, lo+j*sub, sub) {
				up++
				if 2*up > g {
					return true
				}
			}
		}
		return false
	}
	return rec(0, 0, s.n)
}

// QuorumCount returns [HQCCount].
func (s *HQCSystem) QuorumCount() (*big.Int, bool) { return HQCCount(s.Levels), true }

// QuorumSizes returns Π(⌊g_i/2⌋+1) twice: every quorum has that size.
func (s *HQCSystem) QuorumSizes() (int, int) {
	size := 1
	for _, g := range s.Levels {
		size *= g/2 + 1
	}
	return size, size
}

// IntersectionProof cites why two quorums meet.
func (s *HQCSystem) IntersectionProof() string {
	return "Kumar 1991: two majorities of the same groups share a group, level by level down to a node"
}
