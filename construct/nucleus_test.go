package construct_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// TestNucleus checks the nucleus against its definition: the node and
// quorum counts (2r−2 + C(2r−2, r−1)/2 nodes, C(2r−2, r) + C(2r−2, r−1)
// quorums of r nodes each), pairwise intersection and minimality by brute
// force, r = 2 as the majority of three, and Naor and Wool's remark that
// Nuc is nondominated, checked by domination.Decide.
func TestNucleus(t *testing.T) {
	for _, c := range []struct{ r, n, m int }{{2, 3, 3}, {3, 7, 10}, {4, 16, 35}, {5, 43, 126}} {
		f, err := construct.Nucleus(c.r)
		if err != nil {
			t.Fatal(err)
		}
		if f.N != c.n || len(f.Quorums) != c.m || construct.NucleusNodes(c.r) != c.n || construct.NucleusCount(c.r).Cmp(big.NewInt(int64(c.m))) != 0 {
			t.Fatalf("r = %d: %d nodes, %d quorums; want %d and %d", c.r, f.N, len(f.Quorums), c.n, c.m)
		}
		for i := range f.Quorums {
			if f.Quorums[i].Len() != c.r {
				t.Fatalf("r = %d: quorum %v has %d nodes", c.r, &f.Quorums[i], f.Quorums[i].Len())
			}
			for j := i + 1; j < len(f.Quorums); j++ {
				if !set.Intersects(&f.Quorums[i], &f.Quorums[j]) {
					t.Fatalf("r = %d: %v and %v are disjoint", c.r, &f.Quorums[i], &f.Quorums[j])
				}
				if set.Equal(&f.Quorums[i], &f.Quorums[j]) {
					t.Fatalf("r = %d: %v twice", c.r, &f.Quorums[i])
				}
			}
		}
		r, err := domination.Decide(context.Background(), f)
		if err != nil || !r.Nondominated {
			t.Fatalf("r = %d: Decide = %+v, %v; want nondominated", c.r, r, err)
		}
	}
	f, _ := construct.Nucleus(2)
	if f.String() != "n=3 k=1 [{0 1} {0 2} {1 2}]" {
		t.Fatalf("r = 2: %s, want the majority of three", f)
	}
	if _, err := construct.Nucleus(1); err == nil {
		t.Fatal("r = 1 accepted")
	}
}

// TestNucleusRegistered checks that the one file registers the
// construction with its typed form, whose membership agrees with the list.
func TestNucleusRegistered(t *testing.T) {
	spec, ok := construct.Lookup("nucleus")
	if !ok {
		t.Fatal("nucleus is not registered")
	}
	a, err := construct.NewArgs(spec, map[string]any{"r": 4})
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Typed(a)
	if err != nil {
		t.Fatal(err)
	}
	list, err := sys.Family(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	n := sys.N()
	live := set.New(n)
	for mask := range 1 << n {
		live.Clear()
		for v := range n {
			if mask>>v&1 == 1 {
				live.Add(v)
			}
		}
		want := false
		for _, q := range list.All() {
			want = want || set.Subset(q, live)
		}
		if got := sys.HasQuorum(live); got != want {
			t.Fatalf("HasQuorum(%v) = %v, the list says %v", live, got, want)
		}
	}
	if _, ok := sys.(quorum.Prover); !ok {
		t.Fatal("no intersection proof")
	}
}
