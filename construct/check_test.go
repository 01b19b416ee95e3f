package construct

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Simple brute-force checks for the tests of this package; package verify
// has the real (pruned, parallel) ones.

// pairwiseWitness returns two quorums that do not meet, or ok.
func pairwiseWitness(qs []set.Set) (i, j int, ok bool) {
	for i := range qs {
		for j := i + 1; j < len(qs); j++ {
			if !set.Intersects(&qs[i], &qs[j]) {
				return i, j, false
			}
		}
	}
	return 0, 0, true
}

// kwiseWitness reports whether any k+1 quorums (repeats allowed) share a
// node, and otherwise returns k+1 indices whose intersection is empty. It
// extends a running intersection and stops a branch as soon as it is
// empty.
func kwiseWitness(qs []set.Set, k int) ([]int, bool) {
	var pick []int
	acc := make([]set.Set, k+2) // acc[d] = intersection of the first d picks
	var rec func(start int) bool
	rec = func(start int) bool {
		d := len(pick)
		if d == k+1 {
			return true
		}
		for i := start; i < len(qs); i++ {
			if d == 0 {
				acc[1].Copy(&qs[i])
			} else {
				acc[d+1].Intersect(&acc[d], &qs[i])
			}
			pick = append(pick, i)
			if acc[d+1].IsEmpty() || !rec(i) {
				return false
			}
			pick = pick[:d]
		}
		return true
	}
	if rec(0) {
		return nil, true
	}
	return pick, false
}

// criticalPatterns returns the critical conflicting request patterns for k
// (Manabe and Tajima, Definition 4): bags of h in 1..k, in nondecreasing
// order, with sum ≥ k+1 and sum − min ≤ k.
func criticalPatterns(k int) [][]int {
	var out [][]int
	var rec func(p []int, sum int)
	rec = func(p []int, sum int) {
		if sum >= k+1 {
			if sum-p[0] <= k {
				out = append(out, append([]int(nil), p...))
			}
			return
		}
		lo := 1
		if len(p) > 0 {
			lo = p[len(p)-1]
		}
		for h := lo; h <= k; h++ {
			rec(append(p, h), sum+h)
		}
	}
	rec(nil, 0)
	return out
}

// hkWitness checks Theorem 1 of Manabe and Tajima on levels (level[h] lists
// the quorums of Q_{h,k}): every quorum assignment of every critical request
// pattern shares a node. It returns a failing pattern and assignment.
func hkWitness(levels map[int][]set.Set, k int) (pattern, assign []int, ok bool) {
	for _, p := range criticalPatterns(k) {
		assign = assign[:0]
		acc := make([]set.Set, len(p)+1)
		var rec func(pos, start int) bool
		rec = func(pos, start int) bool {
			if pos == len(p) {
				return true
			}
			qs := levels[p[pos]]
			// Equal h's come in a row: choose their quorums as a
			// multiset.
			from := 0
			if pos > 0 && p[pos-1] == p[pos] {
				from = start
			}
			for i := from; i < len(qs); i++ {
				if pos == 0 {
					acc[1].Copy(&qs[i])
				} else {
					acc[pos+1].Intersect(&acc[pos], &qs[i])
				}
				assign = append(assign, i)
				if acc[pos+1].IsEmpty() || !rec(pos+1, i) {
					return false
				}
				assign = assign[:pos]
			}
			return true
		}
		if !rec(0, 0) {
			return p, assign, false
		}
	}
	return nil, nil, true
}

// minimalWitness returns two quorums one of which contains the other.
func minimalWitness(qs []set.Set) (i, j int, ok bool) {
	for i := range qs {
		for j := range qs {
			if i != j && set.Subset(&qs[i], &qs[j]) {
				return i, j, false
			}
		}
	}
	return 0, 0, true
}

// sameFamily fails t unless a and b are identical, quorum by quorum.
func sameFamily(t *testing.T, a, b *set.Family) {
	t.Helper()
	if a.N != b.N || a.K != b.K || a.H != b.H || a.Kind != b.Kind || a.Threshold != b.Threshold ||
		!reflect.DeepEqual(a.Params, b.Params) || !reflect.DeepEqual(a.Labels, b.Labels) ||
		!reflect.DeepEqual(a.Owners, b.Owners) || len(a.Quorums) != len(b.Quorums) {
		t.Fatalf("families differ:\n%v %v %v\n%v %v %v", a, a.Params, a.Labels, b, b.Params, b.Labels)
	}
	for i := range a.Quorums {
		if !set.Equal(&a.Quorums[i], &b.Quorums[i]) {
			t.Fatalf("quorum %d differs: %v vs %v", i+1, &a.Quorums[i], &b.Quorums[i])
		}
	}
}

// sameSystem fails t unless a and b are identical systems.
func sameSystem(t *testing.T, a, b set.System) {
	t.Helper()
	fa, fb := a.Families(), b.Families()
	if (a.HK == nil) != (b.HK == nil) || len(fa) != len(fb) {
		t.Fatalf("systems differ in form")
	}
	if a.HK != nil && (!reflect.DeepEqual(a.HK.Params, b.HK.Params) || a.HK.Kind != b.HK.Kind) {
		t.Fatalf("systems differ in metadata: %v %v", a.HK.Params, b.HK.Params)
	}
	for i := range fa {
		sameFamily(t, fa[i], fb[i])
	}
}

// of1 returns the set of 1-based nodes, as the papers print them, in this
// package's 0-based form.
func of1(nodes ...int) *set.Set {
	s := new(set.Set)
	for _, v := range nodes {
		s.Add(v - 1)
	}
	return s
}

// family1 returns a coterie (k-arbiter) over n nodes from 1-based quorums.
func family1(n, k int, quorums ...[]int) *set.Family {
	f := set.NewFamily(n)
	f.K = k
	for _, q := range quorums {
		f.Add(of1(q...), set.NoOwner)
	}
	return f
}

func TestCheckersFindFailures(t *testing.T) {
	// The checkers must be able to fail: each case is a known failure.
	disjoint := family1(4, 1, []int{1, 2}, []int{3, 4})
	if _, _, ok := pairwiseWitness(disjoint.Quorums); ok {
		t.Error("pairwiseWitness missed {1,2} ∩ {3,4} = ∅")
	}
	// Three 2-subsets of {1,2,3} meet pairwise but not all three at once.
	tri := family1(3, 2, []int{1, 2}, []int{1, 3}, []int{2, 3})
	if _, ok := kwiseWitness(tri.Quorums, 1); !ok {
		t.Error("kwiseWitness(k=1) failed on a coterie")
	}
	if w, ok := kwiseWitness(tri.Quorums, 2); ok || len(w) != 3 {
		t.Errorf("kwiseWitness(k=2) = %v, %v; want a triple", w, ok)
	}
	if _, _, ok := minimalWitness(family1(3, 1, []int{1}, []int{1, 2}).Quorums); ok {
		t.Error("minimalWitness missed {1} ⊆ {1,2}")
	}
	// The paper's examples: {2,2,3} is not critical for k = 4, {1,1,1,2} is.
	got := fmt.Sprint(criticalPatterns(4))
	if want := "[[1 1 1 1 1] [1 1 1 2] [1 1 3] [1 2 2] [1 4] [2 2 2] [2 3] [2 4] [3 3] [3 4] [4 4]]"; got != want {
		t.Errorf("criticalPatterns(4) = %s, want %s", got, want)
	}
}
