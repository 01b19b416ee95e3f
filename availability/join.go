package availability

import (
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// joinSplit is a decomposition of a family as Kuo's join C1 ⊕x C2: the
// inner nodes M (in increasing order) carry C2, and the outer system C1 is
// over the other nodes plus a junction node x, numbered last.
type joinSplit struct {
	inner      []int       // the nodes of M, increasing
	outerNodes []int       // the nodes outside M, increasing; x is node len(outerNodes) of outer
	outer      *set.Family // C1 over len(outerNodes)+1 nodes
	in         *set.Family // C2 over len(inner) nodes
}

// findJoin looks for a node set M on which f splits as a join: every
// quorum meeting M is R ∪ I with I ⊆ M and R ∩ M = ∅, and the quorums
// meeting M are exactly all the pairs R ∪ I of the parts that occur. Then
// f = C1 ⊕x C2 with C2 = {I} and C1 = {Q : Q ∩ M = ∅} ∪ {R ∪ {x}}. The
// candidates for M are the node ranges a construction's parameters name
// (Kind "join": inner nodes after the outer ones, or in place of x), then
// every contiguous range of nodes while that search stays cheap. Kind is a
// hint only: a candidate is accepted only if the quorums really factor.
func findJoin(f *set.Family) (*joinSplit, bool) {
	if f.IsThreshold() || len(f.Quorums) < 2 {
		return nil, false
	}
	n := f.N
	var cands [][2]int // [lo, hi) ranges
	// The parameters construct.Join records: the inner system's size and
	// the junction x (1-based).
	if f.Kind == "join" {
		if n2, ok := f.Params.Int("inner_n"); ok && n2 >= 2 && n2 < n {
			cands = append(cands, [2]int{n - n2, n})
			if x, ok := f.Params.Int("at"); ok && x >= 1 && x-1+n2 <= n {
				cands = append(cands, [2]int{x - 1, x - 1 + n2})
			}
		}
	}
	work := 0
	for i := range f.Quorums {
		work += f.Quorums[i].Len()
	}
	if n*n*work <= 50_000_000 {
		for size := n - 1; size >= 2; size-- {
			for lo := 0; lo+size <= n; lo++ {
				cands = append(cands, [2]int{lo, lo + size})
			}
		}
	}
	sieve := newJoinSieve(f)
	for _, c := range cands {
		if !sieve.maybe(c[0], c[1]) {
			continue
		}
		if s, ok := splitAt(f, c[0], c[1]); ok {
			return s, true
		}
	}
	return nil, false
}

// joinSieve rules out most candidate ranges cheaply before [splitAt]
// checks one exactly: the parts R and I of the quorums are compared by
// 64-bit fingerprints (sums of a fixed random value per node), and a
// join needs as many distinct pairs as the product of the distinct parts.
// Two parts with one fingerprint could only make it pass a range that
// splitAt then rejects, or, with odds of 2^-64, miss a join that the BDD
// then computes: never a wrong answer.
type joinSieve struct {
	qs    [][]int
	seeds []uint64
	rs    map[uint64]struct{}
	is    map[uint64]struct{}
	pairs map[[2]uint64]struct{}
}

func newJoinSieve(f *set.Family) *joinSieve {
	s := &joinSieve{qs: make([][]int, len(f.Quorums)), seeds: make([]uint64, f.N),
		rs: map[uint64]struct{}{}, is: map[uint64]struct{}{}, pairs: map[[2]uint64]struct{}{}}
	for i := range f.Quorums {
		s.qs[i] = f.Quorums[i].Elements()
	}
	x := uint64(0x9E3779B97F4A7C15)
	for v := range s.seeds {
		// splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		s.seeds[v] = z ^ z>>31
	}
	return s
}

// maybe reports whether [lo, hi) may be the inner nodes of a join.
func (s *joinSieve) maybe(lo, hi int) bool {
	clear(s.rs)
	clear(s.is)
	clear(s.pairs)
	for _, q := range s.qs {
		var r, i uint64
		inner := false
		for _, v := range q {
			if v >= lo && v < hi {
				i += s.seeds[v]
				inner = true
			} else {
				r += s.seeds[v]
			}
		}
		if !inner {
			continue
		}
		s.rs[r] = struct{}{}
		s.is[i] = struct{}{}
		s.pairs[[2]uint64{r, i}] = struct{}{}
	}
	return len(s.rs) > 0 && len(s.pairs) == len(s.rs)*len(s.is)
}

// splitAt tests the candidate M = [lo, hi).
func splitAt(f *set.Family, lo, hi int) (*joinSplit, bool) {
	n := f.N
	in := func(v int) bool { return v >= lo && v < hi }
	type part struct{ r, i string }
	rs := map[string][]int{}
	is := map[string][]int{}
	pairs := map[part]bool{}
	var typeII [][]int
	for qi := range f.Quorums {
		var r, i []int
		for v := range f.Quorums[qi].All() {
			if in(v) {
				i = append(i, v)
			} else {
				r = append(r, v)
			}
		}
		if len(i) == 0 {
			typeII = append(typeII, r)
			continue
		}
		rk, ik := key(r), key(i)
		rs[rk], is[ik] = r, i
		pairs[part{rk, ik}] = true
	}
	if len(rs) == 0 || len(pairs) != len(rs)*len(is) {
		return nil, false
	}
	// Every node of M must occur in an inner quorum, or M is not the
	// inner universe of a join.
	used := map[int]bool{}
	for _, i := range is {
		for _, v := range i {
			used[v] = true
		}
	}
	if len(used) != hi-lo {
		return nil, false
	}
	s := &joinSplit{}
	for v := range n {
		if in(v) {
			s.inner = append(s.inner, v)
		} else {
			s.outerNodes = append(s.outerNodes, v)
		}
	}
	x := len(s.outerNodes)
	outerIdx := func(v int) int {
		if v >= hi {
			return v - (hi - lo)
		}
		return v
	}
	s.outer = set.NewFamily(x + 1)
	s.outer.K = f.K
	for _, r := range typeII {
		q := set.New(x + 1)
		for _, v := range r {
			q.Add(outerIdx(v))
		}
		s.outer.Add(q, set.NoOwner)
	}
	for _, k := range sortedKeys(rs) {
		q := set.New(x + 1)
		for _, v := range rs[k] {
			q.Add(outerIdx(v))
		}
		q.Add(x)
		s.outer.Add(q, set.NoOwner)
	}
	s.in = set.NewFamily(hi - lo)
	s.in.K = f.K
	for _, k := range sortedKeys(is) {
		q := set.New(hi - lo)
		for _, v := range is[k] {
			q.Add(v - lo)
		}
		s.in.Add(q, set.NoOwner)
	}
	return s, true
}

func key(xs []int) string {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = append(b, byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
	}
	return string(b)
}

func sortedKeys(m map[string][]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
