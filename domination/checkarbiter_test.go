package domination_test

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

// shareNode reports whether the quorums at positions qs of f share a node.
func shareNode(f *set.Family, qs []int) bool {
	common := f.Quorums[qs[0]].Clone()
	for _, q := range qs[1:] {
		common.Intersect(common, &f.Quorums[q])
	}
	return common.Len() > 0
}

// bruteArbiter reports whether every k+1 quorums of f (repeats allowed)
// share a node, over all (k+1)-tuples.
func bruteArbiter(f *set.Family) bool {
	m, k := len(f.Quorums), f.K
	idx := make([]int, k+1)
	for {
		if !shareNode(f, idx) {
			return false
		}
		i := k
		for i >= 0 && idx[i] == m-1 {
			idx[i] = 0
			i--
		}
		if i < 0 {
			return true
		}
		idx[i]++
	}
}

func listed(n, k int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	f.K = k
	for _, q := range qs {
		f.Add(set.Of(q...), -1)
	}
	return f
}

func TestCheckArbiterAgainstBruteForce(t *testing.T) {
	fano, err := construct.ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	u2, err := construct.Uniform(7, 2)
	if err != nil {
		t.Fatal(err)
	}
	u2l, err := u2.Enumerate(1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		f    *set.Family
	}{
		{"fano", fano},
		{"uniform 2-arbiter listed", u2l},
		{"two disjoint", listed(4, 1, []int{0, 1}, []int{2, 3}, []int{0, 2})},
		{"all pairs of 4", listed(4, 1, []int{0, 1}, []int{0, 2}, []int{0, 3}, []int{1, 2}, []int{1, 3}, []int{2, 3})},
		{"three apart, k = 2", listed(6, 2, []int{0, 1, 2, 3}, []int{2, 3, 4, 5}, []int{0, 1, 4, 5})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			na, err := domination.CheckArbiter(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteArbiter(tt.f)
			if (na == nil) != want {
				t.Fatalf("CheckArbiter %+v, brute force arbiter %v", na, want)
			}
			if na != nil && !na.Threshold && (len(na.Quorums) != tt.f.K+1 || shareNode(tt.f, na.Quorums)) {
				t.Errorf("witness %v", na.Quorums)
			}
		})
	}
	// All 2-subsets of 4 nodes: (k+1)·w = 4 ≤ k·n = 4, so two of them are
	// disjoint; decided by counting, as a threshold and as a list.
	na, err := domination.CheckArbiter(context.Background(), set.NewThreshold(4, 2))
	if err != nil || na == nil || !na.Threshold || na.Listed || na.W != 2 || na.Nodes != 4 {
		t.Errorf("threshold 2 of 4: %+v, %v", na, err)
	}
	na, err = domination.CheckArbiter(context.Background(), listed(4, 1, []int{0, 1}, []int{0, 2}, []int{0, 3}, []int{1, 2}, []int{1, 3}, []int{2, 3}))
	if err != nil || na == nil || !na.Threshold || !na.Listed || na.W != 2 || na.Nodes != 4 {
		t.Errorf("all pairs of 4 listed: %+v, %v", na, err)
	}
}
