package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// bruteByzantine returns, by enumeration, the smallest |Q_i ∩ Q_j| (i ≤ j)
// and the size of the smallest set of nodes meeting every quorum.
func bruteByzantine(f *set.Family) (inter, trans int) {
	inter = f.N + 1
	for i := range f.Quorums {
		for j := i; j < len(f.Quorums); j++ {
			inter = min(inter, set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]))
		}
	}
	trans = f.N + 1
	for mask := 0; mask < 1<<f.N; mask++ {
		s := set.New(f.N)
		for v := range f.N {
			if mask&(1<<v) != 0 {
				s.Add(v)
			}
		}
		hits := true
		for i := range f.Quorums {
			if !set.Intersects(&f.Quorums[i], s) {
				hits = false
				break
			}
		}
		if hits {
			trans = min(trans, s.Len())
		}
	}
	return inter, trans
}

// Random systems: the checks, their witnesses and MaxByzantine agree with
// brute-force intersection sizes and transversals.
func TestByzantineRandomAgainstBrute(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(16, 3))
	for trial := range 300 {
		n := 4 + r.IntN(9)
		f := testsys.Family(r, n, 1+r.IntN(8), 0.4+0.5*r.Float64())
		inter, trans := bruteByzantine(f)
		for _, masking := range []bool{true, false} {
			for b := 0; b <= 4; b++ {
				cs, err := Byzantine(ctx, f, b, masking)
				if err != nil {
					t.Fatal(err)
				}
				need := ByzantineNeed(b, masking)
				if cs[0].OK != (inter >= need) {
					t.Fatalf("trial %d %v b=%d masking=%v: intersection %v, brute %d", trial, f, b, masking, cs[0], inter)
				}
				if !cs[0].OK {
					w := cs[0].Witness
					i, j := w.Quorums[0], w.Quorums[1]
					var common set.Set
					common.Intersect(&f.Quorums[i], &f.Quorums[j])
					if common.Len() >= need || fmt.Sprint(common.Elements()) != fmt.Sprint(w.Nodes) {
						t.Fatalf("trial %d: witness %+v", trial, w)
					}
				}
				if cs[1].OK != (trans > b) {
					t.Fatalf("trial %d %v b=%d: availability %v, smallest transversal %d", trial, f, b, cs[1], trans)
				}
				if !cs[1].OK {
					s := set.Of(cs[1].Witness.Nodes...)
					if s.Len() > b {
						t.Fatalf("trial %d: witness %v has more than %d nodes", trial, s, b)
					}
					for i := range f.Quorums {
						if !set.Intersects(&f.Quorums[i], s) {
							t.Fatalf("trial %d: witness %v misses quorum %d", trial, s, i)
						}
					}
				}
			}
			got, err := MaxByzantine(ctx, f, masking)
			if err != nil {
				t.Fatal(err)
			}
			want := min(inter-1, trans-1)
			if masking {
				want = min((inter-1)/2, trans-1)
			}
			if inter == 0 {
				want = -1
			}
			if got != want {
				t.Fatalf("trial %d %v masking=%v: MaxByzantine %d, want %d (I = %d, τ = %d)", trial, f, masking, got, want, inter, trans)
			}
		}
	}
}

// Malkhi and Reiter's threshold systems are exactly b-masking (n = 4b+1)
// and b-dissemination (n = 3b+1) at their bounds, and not (b+1)-anything;
// the threshold shortcut agrees with the enumerated family.
func TestByzantineThreshold(t *testing.T) {
	ctx := context.Background()
	for b := 0; b <= 3; b++ {
		for _, masking := range []bool{true, false} {
			n := 3*b + 1
			if masking {
				n = 4*b + 1
			}
			f, err := construct.Byzantine(n, b, masking)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range []*set.Family{f, mustEnumerate(t, f)} {
				cs, err := Byzantine(ctx, g, b, masking)
				if err != nil || !cs[0].OK || !cs[1].OK {
					t.Fatalf("n=%d b=%d masking=%v: %+v %v", n, b, masking, cs, err)
				}
				cs, _ = Byzantine(ctx, g, b+1, masking)
				if cs[0].OK || cs[1].OK {
					t.Fatalf("n=%d b=%d masking=%v: passes for b+1: %+v", n, b, masking, cs)
				}
				if mb, err := MaxByzantine(ctx, g, masking); err != nil || mb != b {
					t.Fatalf("n=%d b=%d masking=%v: MaxByzantine = %d, %v", n, b, masking, mb, err)
				}
			}
		}
	}
}

func mustEnumerate(t *testing.T, f *set.Family) *set.Family {
	g, err := f.Enumerate(1 << 14)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The M-Grid is b-masking for the b it is built for, checked against the
// brute force on small grids.
func TestMGridMasking(t *testing.T) {
	ctx := context.Background()
	for _, nb := range [][2]int{{4, 0}, {9, 1}, {16, 1}, {16, 2}, {25, 2}, {25, 3}} {
		f, err := construct.MGrid(nb[0], nb[1])
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Byzantine(ctx, f, nb[1], true)
		if err != nil || !cs[0].OK || !cs[1].OK {
			t.Errorf("mgrid %v: %+v, %v", nb, cs, err)
		}
		if f.N <= 16 {
			inter, trans := bruteByzantine(f)
			if 2*nb[1]+1 > inter || trans <= nb[1] {
				t.Errorf("mgrid %v: brute intersection %d, transversal %d", nb, inter, trans)
			}
		}
	}
}

// A plain coterie is 0-masking and 0-dissemination: every two quorums meet
// and no empty set blocks them; the Fano plane's lines meet in one node, so
// it is no more.
func TestByzantineCoterie(t *testing.T) {
	f := testsys.Plane(t, 2)
	for _, masking := range []bool{true, false} {
		if b, err := MaxByzantine(context.Background(), f, masking); err != nil || b != 0 {
			t.Errorf("Fano, masking %v: MaxByzantine = %d, %v", masking, b, err)
		}
	}
	// Cancelled: the search reports the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big, _ := construct.Triangle(7)
	if _, err := MaxByzantine(ctx, big, true); err == nil {
		t.Error("a cancelled context went unnoticed")
	}
}

// boostFPP is b-masking for its b and no more: two lines share one point, whose groups' quorums of 3b+1 of 4b+1
// nodes meet in exactly 2b+1.
func TestBoostFPPMasking(t *testing.T) {
	ctx := context.Background()
	for _, qb := range [][2]int{{2, 1}, {3, 1}, {1, 2}} {
		f, err := construct.BoostFPP(qb[0], qb[1])
		if err != nil {
			t.Fatal(err)
		}
		size, _, _, _, err := MinIntersection(ctx, f)
		if err != nil || size != 2*qb[1]+1 {
			t.Errorf("boostfpp %v: smallest intersection %d, %v", qb, size, err)
		}
		if b, err := MaxByzantine(ctx, f, true); err != nil || b != qb[1] {
			t.Errorf("boostfpp %v: MaxByzantine = %d, %v", qb, b, err)
		}
	}
}
