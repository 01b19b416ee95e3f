package construct

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// The nucleus of Erdős and Lovász ("Problems and results on 3-chromatic
// hypergraphs and some related questions", in Infinite and Finite Sets,
// 1975), the quorum system Nuc of Naor and Wool ("The load, capacity and
// availability of quorum systems", SIAM J. Comput. 27(2), 1998). This file
// is the whole construction: its definition, its registration and its
// typed form.

func init() { register(nucleusSpec) }

// NucleusNodes returns the number of nodes of [Nucleus](r):
// 2r−2 + C(2r−2, r−1)/2, or −1 past set.MaxNodes.
func NucleusNodes(r int) int {
	if r < 2 {
		return -1
	}
	halves := new(big.Int).Binomial(int64(2*r-2), int64(r-1))
	halves.Rsh(halves, 1)
	if !halves.IsInt64() || halves.Int64() > set.MaxNodes-int64(2*r-2) {
		return -1
	}
	return 2*r - 2 + int(halves.Int64())
}

// NucleusCount returns the number of quorums of [Nucleus](r):
// C(2r−2, r) + C(2r−2, r−1).
func NucleusCount(r int) *big.Int {
	c := new(big.Int).Binomial(int64(2*r-2), int64(r))
	return c.Add(c, new(big.Int).Binomial(int64(2*r-2), int64(r-1)))
}

// Nucleus returns the nucleus system of rank r ≥ 2. Its nodes are the
// nucleus U₁ = {0, …, 2r−3} and one node u_P for each partition P = {A, Ā}
// of U₁ into two halves of r−1 nodes, numbered after U₁ in the
// lexicographic order of the half A that holds node 0. Its quorums are
// every r-subset of U₁, and A ∪ {u_P} and Ā ∪ {u_P} for every partition P:
// each has r nodes. Any two meet: two r-subsets of 2r−2 nodes share one;
// an r-subset of U₁ cannot fit inside the r−1 nodes of Ā, so it meets A;
// two halves with the same u_P share it, and halves of different
// partitions are never complementary, so they meet. For r = 2 it is the
// majority of three nodes.
func Nucleus(r int) (*set.Family, error) {
	return nucleus(context.Background(), r)
}

// nucleus is [Nucleus] watching ctx.
func nucleus(ctx context.Context, r int) (*set.Family, error) {
	n := NucleusNodes(r)
	if n < 0 {
		return nil, paramErrorf("nucleus", "r", r, "makes more than %d nodes", set.MaxNodes)
	}
	if err := checkCount(fmt.Sprintf("nucleus: r = %d", r), NucleusCount(r), n); err != nil {
		return nil, err
	}
	core := 2*r - 2
	return collect(ctx, n, "nucleus", set.Params{"r": r}, func(s *set.Set, emit func()) {
		combinations(core, r, func(c []int) {
			for _, v := range c {
				s.Add(v)
			}
			emit()
			s.Clear()
		})
		u := core
		nucleusHalves(r, func(a, b []int) {
			for _, half := range [][]int{a, b} {
				s.Clear()
				s.Add(u)
				for _, v := range half {
					s.Add(v)
				}
				emit()
			}
			s.Clear()
			u++
		})
	})
}

// nucleusHalves calls k with every partition of {0, …, 2r−3} into two
// halves of r−1 nodes, a holding node 0, in lexicographic order of a.
func nucleusHalves(r int, k func(a, b []int)) {
	core := 2*r - 2
	in := make([]bool, core)
	b := make([]int, 0, r-1)
	combinations(core, r-1, func(a []int) {
		if a[0] != 0 {
			return
		}
		clear(in)
		for _, v := range a {
			in[v] = true
		}
		b = b[:0]
		for v := range core {
			if !in[v] {
				b = append(b, v)
			}
		}
		k(a, b)
	})
}

var nucleusSpec = Spec{
	Name:    "nucleus",
	Summary: "the nucleus: every r-subset of 2r−2 nodes, and each half of a partition of them with the partition's own node",
	Source:  "Erdős, Lovász 1975; Naor, Wool 1998 (Nuc)",
	Params: []Param{
		{Name: "r", Usage: "quorum size r (2r−2 nodes in the nucleus)", Type: Int, Required: true, Min: 2, Max: 12},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) { return system(nucleus(ctx, a.Int("r"))) },
	Typed:        func(a Args) (quorum.System, error) { return NewNucleusSystem(a.Int("r")) },
}

// NucleusSystem is [Nucleus] as a typed construction.
type NucleusSystem struct {
	implicitBase
	R int
}

// NewNucleusSystem returns the nucleus of rank r ≥ 2.
func NewNucleusSystem(r int) (*NucleusSystem, error) {
	n := NucleusNodes(r)
	if n < 0 {
		return nil, paramErrorf("nucleus", "r", r, "must be at least 2, with at most %d nodes", set.MaxNodes)
	}
	return &NucleusSystem{implicitBase{kind: "nucleus", params: set.Params{"r": r}, n: n}, r}, nil
}

// HasQuorum reports whether live holds r nodes of the nucleus, or a half
// of a partition together with the partition's node.
func (s *NucleusSystem) HasQuorum(live *set.Set) bool {
	core, up := 2*s.R-2, 0
	for v := range core {
		if live.Has(v) {
			up++
		}
	}
	if up >= s.R {
		return true
	}
	if up < s.R-1 {
		return false
	}
	found, u := false, core
	nucleusHalves(s.R, func(a, b []int) {
		if !found && live.Has(u) {
			found = allIn(live, a) || allIn(live, b)
		}
		u++
	})
	return found
}

func allIn(live *set.Set, nodes []int) bool {
	for _, v := range nodes {
		if !live.Has(v) {
			return false
		}
	}
	return true
}

// QuorumCount returns [NucleusCount].
func (s *NucleusSystem) QuorumCount() (*big.Int, bool) { return NucleusCount(s.R), true }

// QuorumSizes returns r twice: every quorum has r nodes.
func (s *NucleusSystem) QuorumSizes() (int, int) { return s.R, s.R }

// IntersectionProof cites why two quorums meet.
func (s *NucleusSystem) IntersectionProof() string {
	return "Erdős and Lovász 1975: two r-sets of the 2r−2 nucleus nodes meet, an r-set cannot avoid a half of r−1, and halves of different partitions are never complementary"
}
