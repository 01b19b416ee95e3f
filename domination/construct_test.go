package domination

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The constructors' systems: Maekawa's planes PG(2,q) over GF(q) (Fano
// nondominated, every other order dominated by a blocking set with no
// line), Maekawa's grids including degenerate ones, billiard quorums (which
// Agrawal, Eğecioğlu and El Abbadi call dominated, Section 3: "one can easily
// include more quorums"), majority and uniform arbiters.
func TestConstructedSystems(t *testing.T) {
	ctx := context.Background()
	fano, err := construct.ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	if r := decide(t, fano); !r.Nondominated {
		t.Errorf("Fano plane dominated by %v", r.Witness)
	}
	for _, q := range []int{3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		r := decide(t, f)
		if r.Nondominated {
			t.Fatalf("PG(2,%d) nondominated", q)
		}
		for i := range f.Quorums {
			if !set.Intersects(&f.Quorums[i], r.Witness) || set.Subset(&f.Quorums[i], r.Witness) {
				t.Fatalf("PG(2,%d): witness misses or contains line %d", q, i+1)
			}
		}
	}
	for _, g := range [][3]int{{3, 3, 0}, {4, 4, 0}, {3, 4, 10}, {5, 5, 23}, {10, 10, 0}} {
		f, err := construct.Grid(g[0], g[1], g[2])
		if err != nil {
			t.Fatal(err)
		}
		if r := decide(t, f); r.Nondominated {
			t.Errorf("grid %v nondominated", g)
		}
	}
	for _, q := range []int{3, 5, 7, 9, 11} {
		f, err := construct.Billiard(q)
		if err != nil {
			t.Fatal(err)
		}
		if r := decide(t, f); r.Nondominated {
			t.Errorf("billiard q=%d nondominated", q)
		}
	}
	for n := 1; n <= 12; n++ {
		f, err := construct.Majority(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decide(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		listed, err := f.Enumerate(1 << 12)
		if err != nil {
			t.Fatal(err)
		}
		if r.Nondominated != (n%2 == 1) || decide(t, listed).Nondominated != r.Nondominated {
			t.Errorf("majority of %d: nondominated = %v", n, r.Nondominated)
		}
	}
	u, err := construct.Uniform(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := u.Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	if listed.K != 2 || len(listed.Quorums) != 4 || !decide(t, listed).Nondominated {
		t.Errorf("uniform 2-arbiter over 4 nodes: %v not nondominated", listed)
	}
}

// The join constructor agrees with the test's own join (as sets of
// quorums), and Kuo's Corollary 4 holds for it on random small joins.
func TestConstructJoin(t *testing.T) {
	for _, k := range []int{1, 2} {
		testJoinsWith(t, k, 150, func(c1 *set.Family, x int, c2 *set.Family) *set.Family {
			j, err := construct.Join(c1, c2, x, 1<<16)
			if err != nil {
				t.Fatal(err)
			}
			mine := join(c1, x, c2)
			mine.Canonical()
			a, b := j.Clone(), mine
			a.Canonical()
			if len(a.Quorums) != len(b.Quorums) {
				t.Fatalf("construct.Join has %d quorums, the test's join %d", len(a.Quorums), len(b.Quorums))
			}
			for i := range a.Quorums {
				if !set.Equal(&a.Quorums[i], &b.Quorums[i]) {
					t.Fatalf("quorum %d: construct.Join %v, the test's join %v", i+1, &a.Quorums[i], &b.Quorums[i])
				}
			}
			return j
		})
	}
}
