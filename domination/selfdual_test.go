package domination

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// engineCounts counts the minimal transversals of f by size with MMCS.
func engineCounts(t *testing.T, f *set.Family) []uint64 {
	t.Helper()
	h, left, err := Options{}.packFor(f)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := mmcsSearchProgress(context.Background(), h, nil, autoEngine, nil, left)
	if err != nil {
		t.Fatal(err)
	}
	return counts
}

// TestSelfDualCount checks the count of minimal transversals by the
// quorums of a nondominated coterie against MMCS's enumeration, and that
// dominated coteries and intersecting-free families are left to MMCS.
func TestSelfDualCount(t *testing.T) {
	ctx := context.Background()
	must := func(f *set.Family, err error) *set.Family {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	tree3 := must(construct.Tree(2, 3))
	// The tree with supersets of some quorums added: not minimal, the
	// same transversals.
	padded := tree3.Clone()
	for i := 0; i < len(tree3.Quorums); i += 7 {
		q := tree3.Quorums[i].Clone()
		for v := range tree3.N {
			if !q.Has(v) {
				q.Add(v)
				break
			}
		}
		padded.Add(q, set.NoOwner)
	}
	r := rand.New(rand.NewPCG(3, 9))
	for _, tt := range []struct {
		name string
		f    *set.Family
		nd   bool // nondominated coterie (the literature's, not this code's, verdict)
	}{
		{"tree 2,2", must(construct.Tree(2, 2)), true},
		{"tree 2,3", tree3, true},
		{"tree 3,2", must(construct.Tree(3, 2)), true},
		{"tree 2,3 with supersets", padded, true},
		{"fpp 2", pg(t, 2), true},
		// Of the projective planes only the Fano plane is nondominated
		// (a blocking set of PG(2,q) contains no line for q ≥ 3).
		{"fpp 3", pg(t, 3), false},
		// A join of nondominated coteries is one (Neilsen and Mizuno).
		{"fpp 2 ⊕ tree 2,2", join(pg(t, 2), 3, must(construct.Tree(2, 2))), true},
		{"triangle 4", must(construct.Wall([]int{1, 2, 3, 4})), true},
		// Maekawa's grid is dominated (its row-and-column quorums miss
		// the transversal made of a row).
		{"grid 3×3", grid(3, 3), false},
		{"random", randomFamily(r, 10, 12, 0.3), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, ok, err := selfDualCount(ctx, tt.f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.nd {
				t.Fatalf("selfDualCount ok = %v, want %v", ok, tt.nd)
			}
			if !ok {
				return
			}
			want := engineCounts(t, tt.f)
			var total uint64
			for size, k := range want {
				total += k
				got := c.BySize[size]
				if k == 0 && got != nil || k > 0 && (got == nil || got.Uint64() != k) {
					t.Errorf("size %d: %v transversals, MMCS %d", size, got, k)
				}
			}
			if c.Total.Uint64() != total {
				t.Errorf("total %v, MMCS %d", c.Total, total)
			}
		})
	}
}
