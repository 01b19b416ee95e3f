package availability

import (
	"slices"

	"github.com/coterie-dev/coterie/construct"
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
// candidates for M are the node ranges the file's construction claims
// (construct.JoinClaim: inner nodes after the outer ones, or in place of
// x), then every contiguous range of nodes while that search stays cheap.
// The claim is a hint only: a candidate is accepted only if the quorums
// really factor.
func findJoin(f *set.Family) (*joinSplit, bool) {
	if len(f.Quorums) < 2 {
		return nil, false
	}
	n := f.N
	var cands [][2]int // [lo, hi) ranges
	// Where the file's construction says the inner system lies, first.
	cands = append(cands, construct.JoinClaim(f)...)
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
// then computes: never a wrong answer. The fingerprint of a quorum's part
// in a range is a difference of its prefix sums, node by node.
type joinSieve struct {
	n int
	// sum[q*(n+1)+x] is the fingerprint of quorum q's nodes below x, and
	// count[q*(n+1)+x] their number.
	sum   []uint64
	count []int32
	// The distinct fingerprints of the parts of one range, and of their
	// pairs (hashed to 64 bits).
	rs, is, pairs fingerprintSet
}

// fingerprintSet is a set of 64-bit fingerprints (random already), open
// addressing, emptied in O(1) by a new generation.
type fingerprintSet struct {
	keys []uint64
	gen  []uint32
	now  uint32
	size int
}

func newFingerprintSet(room int) fingerprintSet {
	n := 16
	for n < 2*room {
		n *= 2
	}
	return fingerprintSet{keys: make([]uint64, n), gen: make([]uint32, n), now: 1}
}

func (s *fingerprintSet) reset() { s.now++; s.size = 0 }

func (s *fingerprintSet) add(x uint64) {
	mask := uint64(len(s.keys) - 1)
	for i := x & mask; ; i = (i + 1) & mask {
		if s.gen[i] != s.now {
			s.gen[i], s.keys[i] = s.now, x
			s.size++
			return
		}
		if s.keys[i] == x {
			return
		}
	}
}

// maxSieveWords bounds the prefix sums of a sieve (quorums × (n+1)).
const maxSieveWords = 1 << 22

func newJoinSieve(f *set.Family) *joinSieve {
	n, m := f.N, len(f.Quorums)
	if int64(m)*int64(n+1) > maxSieveWords {
		return nil
	}
	seeds := make([]uint64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for v := range seeds {
		// splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		seeds[v] = z ^ z>>31
	}
	s := &joinSieve{n: n, sum: make([]uint64, m*(n+1)), count: make([]int32, m*(n+1)),
		rs: newFingerprintSet(m), is: newFingerprintSet(m), pairs: newFingerprintSet(m)}
	for q := range f.Quorums {
		sum, count := s.sum[q*(n+1):(q+1)*(n+1)], s.count[q*(n+1):(q+1)*(n+1)]
		for v := range f.Quorums[q].All() {
			sum[v+1] = seeds[v]
			count[v+1] = 1
		}
		for x := 1; x <= n; x++ {
			sum[x] += sum[x-1]
			count[x] += count[x-1]
		}
	}
	return s
}

// maybe reports whether [lo, hi) may be the inner nodes of a join; a nil
// sieve (too large to build) lets every range through.
func (s *joinSieve) maybe(lo, hi int) bool {
	if s == nil {
		return true
	}
	n := s.n
	s.rs.reset()
	s.is.reset()
	s.pairs.reset()
	for q := 0; q < len(s.count); q += n + 1 {
		if s.count[q+hi] == s.count[q+lo] {
			continue // no node in the range
		}
		i := s.sum[q+hi] - s.sum[q+lo]
		r := s.sum[q+n] - i
		s.rs.add(r)
		s.is.add(i)
		h := (r ^ i*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
		s.pairs.add(h ^ h>>31)
	}
	return s.rs.size > 0 && s.pairs.size == s.rs.size*s.is.size
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
