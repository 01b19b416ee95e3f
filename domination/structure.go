package domination

import (
	"encoding/binary"

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
	if f.IsThreshold() || len(f.Quorums) == 0 {
		return nil, 0, false
	}
	w = f.Quorums[0].Len()
	for i := range f.Quorums {
		if f.Quorums[i].Len() != w {
			return nil, 0, false
		}
	}
	sup = support(f)
	if !binomialEquals(len(sup), w, len(f.Quorums)) {
		return nil, 0, false
	}
	// Distinct quorums, by their packed bits.
	nw := set.WordsFor(f.N)
	seen := make(map[string]struct{}, len(f.Quorums))
	key := make([]byte, 8*nw)
	packed := make(set.Words, nw)
	for i := range f.Quorums {
		clear(packed)
		for v := range f.Quorums[i].All() {
			packed.Add(v)
		}
		for j, x := range packed {
			binary.LittleEndian.PutUint64(key[8*j:], x)
		}
		if _, dup := seen[string(key)]; dup {
			return nil, 0, false
		}
		seen[string(key)] = struct{}{}
	}
	return sup, w, true
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
	return thresholdOnSupport(f)
}
