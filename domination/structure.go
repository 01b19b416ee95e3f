package domination

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// support returns the nodes that lie in some quorum of the explicit family
// f, increasing.
func support(f *set.Family) []int {
	var u set.Set
	for i := range f.Quorums {
		u.Union(&u, &f.Quorums[i])
	}
	return u.Elements()
}

// thresholdOnSupport reports whether the explicit family f is exactly the
// set of all w-subsets of its support S (the nodes in some quorum), and
// returns S and w. It is checked, never assumed: every quorum has w nodes,
// no two quorums are equal, and there are C(|S|, w) of them; then the
// quorums are C(|S|, w) distinct w-subsets of S, which is all of them. A
// family that misses one w-subset, repeats one, or has one of another
// size is not recognised.
func thresholdOnSupport(f *set.Family) (sup []int, w int, ok bool) {
	return f.EverySubset()
}

// binomialEquals reports whether C(n, r) = m, without overflow.
func binomialEquals(n, r, m int) bool {
	if r < 0 || r > n {
		return m == 0
	}
	r = min(r, n-r)
	b := 1
	for i := 1; i <= r; i++ {
		// b·(n−r+i)/i is C(n−r+i, i), an integer; stop once it passes m
		// (the sequence only grows).
		b = b * (n - r + i) / i
		if b > m {
			return false
		}
	}
	return b == m
}

// supportThresholdResult decides the family of all w-subsets of the nodes
// sup (inside a universe of n nodes) by the closed form of
// [ThresholdDominated] on |sup| nodes: nodes outside every quorum play no
// part in P1 or P2, and a minimal witness holds none of them. Its witness
// is the closed form's, carried onto sup.
func supportThresholdResult(n int, sup []int, w, k int) *Result {
	dom, _ := ThresholdDominated(len(sup), w, k)
	if !dom {
		return &Result{Nondominated: true, K: k, ClosedForm: true}
	}
	h := set.New(n)
	for v := range thresholdWitness(len(sup), w, k).All() {
		h.Add(sup[v])
	}
	return &Result{K: k, Witness: h, Smallest: true, Proof: ProofClosedForm, ClosedForm: true}
}

// ThresholdSupport reports whether the explicit family f is exactly the
// set of all w-subsets of the nodes its quorums use (checked: equal sizes,
// no repeats, and C(|nodes|, w) quorums), and returns those nodes and w.
// Such a family is a k-arbiter iff (k+1)·w > k·|nodes|, and is decided by
// [ThresholdDominated] on |nodes| nodes.
func ThresholdSupport(f *set.Family) (nodes []int, w int, ok bool) {
	f, err := explicitFamily(context.Background(), f)
	if err != nil {
		return nil, 0, false
	}
	return thresholdOnSupport(f)
}

// Structures recognised in an explicit list by [Decide] (Result.Structure).
const (
	// StructureThreshold: all w-subsets of the nodes in use.
	StructureThreshold = "threshold"
	// StructurePlane: the lines of a projective plane.
	StructurePlane = "projective-plane"
	// StructureJoin: Kuo's join C1 ⊕x C2 of two smaller systems.
	StructureJoin = "join"
)

// planeOnSupport returns the explicit coterie f as a projective plane on
// the nodes its quorums use (sup, increasing; point i of the plane is node
// sup[i]), or nil if it is not one. Nothing is taken from f's kind: the
// checks are those of [newPlane], on the quorums alone.
func planeOnSupport(f *set.Family) (*plane, []int) {
	if f.K != 1 || len(f.Quorums) < 7 { // a threshold family lists none
		return nil, nil
	}
	sup := support(f)
	n := len(sup)
	if n != len(f.Quorums) {
		return nil, nil
	}
	q := 2
	for q*q+q+1 < n {
		q++
	}
	if q*q+q+1 != n {
		return nil, nil
	}
	index := make([]int32, f.N)
	for i, v := range sup {
		index[v] = int32(i)
	}
	lines := make([][]int32, n)
	for i := range f.Quorums {
		if f.Quorums[i].Len() != q+1 {
			return nil, nil
		}
		for v := range f.Quorums[i].All() {
			lines[i] = append(lines[i], index[v])
		}
	}
	p := newPlane(q, lines)
	if p == nil {
		return nil, nil
	}
	return p, sup
}

// planeResult decides the lines of a projective plane p of order q over
// the nodes sup (inside a universe of n nodes) by theorem.
//
// A witness is a set of points that meets every line and contains none: a
// nontrivial blocking set. A plane of order 2 (7 points, 7 lines) has
// none, so its lines (Maekawa's K = 3 system) are nondominated: the
// complement of a witness is a witness, so some witness H has at least 4
// points; if it has 5 or more, the at most 2 points outside lie on at most
// 5 of the 7 lines, so a line lies in H; if it has 4 with no three on a
// line, its 6 pairs span 6 lines, which are all the lines through its
// points (3 through each), so the 7th line misses H. Either way H fails.
// Every plane of order q ≥ 3, Desarguesian or not, has one (a classical
// construction; Bruen 1971 bounds its size), so its lines are dominated:
// take three points a, b, c not on a
// line and the q−1 points of each side of the triangle other than its
// vertices. A line through no vertex meets each side in a point that is not
// a vertex; a side keeps its q−1 ≥ 2 inner points; any other line through
// a vertex meets the opposite side away from the vertices. A line other
// than a side meets the set in at most three points, fewer than q+1, and a
// side in q−1; so the 3(q−1) points meet every line and contain none. The
// witness is shrunk to an inclusion-minimal one and checked as every
// witness is.
func planeResult(ctx context.Context, f *set.Family, p *plane, sup []int) (*Result, error) {
	if p.q == 2 {
		return &Result{Nondominated: true, K: 1, Structure: StructurePlane, PlaneOrder: 2}, nil
	}
	quad := p.quadrangle()
	a, b, c := quad[0], quad[1], quad[2]
	h := set.New(f.N)
	for _, l := range []int{p.join(a, b), p.join(a, c), p.join(b, c)} {
		for _, v := range p.lines[l] {
			if v := int(v); v != a && v != b && v != c {
				h.Add(sup[v])
			}
		}
	}
	return checkedWitness(ctx, f, h, &Result{K: 1, Structure: StructurePlane, PlaneOrder: p.q})
}

// checkedWitness shrinks the witness h of f to an inclusion-minimal one,
// checks it with [CheckWitness] and returns r with it.
func checkedWitness(ctx context.Context, f *set.Family, h *set.Set, r *Result) (*Result, error) {
	h, err := shrink(ctx, f, h)
	if err != nil {
		return nil, err
	}
	if err := CheckWitness(ctx, f, h); err != nil {
		return nil, fmt.Errorf("domination: internal error: the witness found fails the check: %w", err)
	}
	r.Witness = h
	return r, nil
}
