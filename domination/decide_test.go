package domination

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// kIntersections returns the masks of all intersections of k quorums
// (repetition allowed) of a small family, by brute force.
func kIntersections(qs []uint32, k int) []uint32 {
	cur := map[uint32]bool{}
	for _, q := range qs {
		cur[q] = true
	}
	for range k - 1 {
		next := map[uint32]bool{}
		for a := range cur {
			for _, q := range qs {
				next[a&q] = true
			}
		}
		cur = next
	}
	var out []uint32
	for a := range cur {
		out = append(out, a)
	}
	return out
}

// bruteWitness reports whether mask h satisfies Kuo's Theorem 2 (Theorem 1
// for k = 1), straight from the definitions.
func bruteWitness(qs, inters []uint32, h uint32) bool {
	for _, q := range qs {
		if q&^h == 0 {
			return false // P1: h contains q
		}
	}
	for _, in := range inters {
		if in&h == 0 {
			return false // P2
		}
	}
	return true
}

// bruteDominated tries every H over the n ≤ 16 nodes; it returns whether
// one is a witness and the size of the smallest.
func bruteDominated(f *set.Family) (bool, int) {
	qs := masks(f)
	inters := kIntersections(qs, f.K)
	smallest := -1
	for h := uint32(0); h < 1<<f.N; h++ {
		if bruteWitness(qs, inters, h) {
			if c := bits.OnesCount32(h); smallest < 0 || c < smallest {
				smallest = c
			}
		}
	}
	return smallest >= 0, smallest
}

// checkWitnessBrute checks a returned witness against the definitions and
// for inclusion-minimality.
func checkWitnessBrute(t *testing.T, f *set.Family, h *set.Set) {
	t.Helper()
	qs := masks(f)
	inters := kIntersections(qs, f.K)
	var m uint32
	for v := range h.All() {
		m |= 1 << v
	}
	if !bruteWitness(qs, inters, m) {
		t.Fatalf("witness %v fails the definitions for %v", h, f)
	}
	for w := m; w != 0; w &= w - 1 {
		if bruteWitness(qs, inters, m&^(w&-w)) {
			t.Fatalf("witness %v of %v is not minimal", h, f)
		}
	}
}

// randomArbiter returns a random k-arbiter over n ≤ 16 nodes: random sets,
// each kept if every k+1 of the kept ones (repetition allowed) still meet
// and it is not comparable with one kept.
func randomArbiter(r *rand.Rand, n, k, tries int) *set.Family {
	var qs []uint32
	p := 0.3 + 0.5*r.Float64()
	for range tries {
		var q uint32
		for v := range n {
			if r.Float64() < p {
				q |= 1 << v
			}
		}
		if q == 0 {
			continue
		}
		ok := true
		for _, o := range qs {
			if o&^q == 0 || q&^o == 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		cand := append(append([]uint32(nil), qs...), q)
		for _, in := range kIntersections(cand, k+1) {
			if in == 0 {
				ok = false
				break
			}
		}
		if ok {
			qs = cand
		}
	}
	f := set.NewFamily(n)
	f.K = k
	for _, q := range qs {
		s := set.New(n)
		for v := range n {
			if q&(1<<v) != 0 {
				s.Add(v)
			}
		}
		f.Add(s, set.NoOwner)
	}
	return f
}

func decide(t *testing.T, f *set.Family) *Result {
	t.Helper()
	r, err := Decide(context.Background(), f)
	if err != nil {
		t.Fatalf("Decide(%v): %v", f, err)
	}
	if !r.Nondominated {
		if err := CheckWitness(context.Background(), f, r.Witness); err != nil {
			t.Fatalf("Decide(%v) witness %v: %v", f, r.Witness, err)
		}
	}
	return r
}

// The solver agrees with brute force over all H on thousands of random
// coteries, and its witnesses are minimal and satisfy Theorem 1.
func TestDecideBruteForceCoteries(t *testing.T) {
	testDecideBruteForce(t, 1, 3000)
}

func testDecideBruteForce(t *testing.T, k, cases int) {
	r := rand.New(rand.NewPCG(uint64(k), 9))
	dominated := 0
	for i := range cases {
		n := 2 + r.IntN(13)
		f := randomArbiter(r, n, k, 4+r.IntN(30))
		if len(f.Quorums) == 0 {
			continue
		}
		want, _ := bruteDominated(f)
		got := decide(t, f)
		if got.Nondominated == want {
			t.Fatalf("case %d: Decide(%v) nondominated = %v, brute force says dominated = %v", i, f, got.Nondominated, want)
		}
		if want {
			dominated++
			checkWitnessBrute(t, f, got.Witness)
		}
	}
	if dominated < cases/10 || dominated > cases*9/10 {
		t.Errorf("only %d of %d random systems dominated: the sample is lopsided", dominated, cases)
	}
}

func TestDecideSmallestBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for i := range 400 {
		f := randomArbiter(r, 2+r.IntN(11), 1+i%3, 4+r.IntN(20))
		if len(f.Quorums) == 0 {
			continue
		}
		dom, smallest := bruteDominated(f)
		got, err := DecideSmallest(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if got.Nondominated == dom {
			t.Fatalf("case %d: %v: nondominated %v", i, f, got.Nondominated)
		}
		if dom && (got.Witness.Len() != smallest || !got.Smallest) {
			t.Fatalf("case %d: %v: smallest witness %v, want size %d", i, f, got.Witness, smallest)
		}
	}
}

// PG(2,2), the Fano plane, is nondominated; every other projective plane
// PG(2,q) is dominated, and the witness is a blocking set with no line
// (Theorem 1): it meets every line and contains none.
func TestProjectivePlanes(t *testing.T) {
	if r := decide(t, pg(t, 2)); !r.Nondominated {
		t.Fatalf("Fano plane dominated by %v", r.Witness)
	}
	for _, q := range []int{3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32} {
		f := pg(t, q)
		r := decide(t, f)
		if r.Nondominated {
			t.Fatalf("PG(2,%d) nondominated", q)
		}
		h := r.Witness
		for i := range f.Quorums {
			line := &f.Quorums[i]
			if !set.Intersects(line, h) || set.Subset(line, h) {
				t.Fatalf("PG(2,%d): witness %v misses or contains line %d", q, h, i)
			}
		}
		// A blocking set without a line has at least q+√q+1 points
		// (Bruen 1971); a minimal one at most q√q+1.
		if s := h.Len(); float64(s) < float64(q)+sqrt(q)+1-1e-9 || float64(s) > float64(q)*sqrt(q)+1+1e-9 {
			t.Errorf("PG(2,%d): minimal witness of %d points breaks Bruen's bounds", q, s)
		}
	}
}

func sqrt(q int) float64 {
	x := float64(q)
	r := x
	for range 60 {
		r = (r + x/r) / 2
	}
	return r
}

// Maekawa's grids are dominated: a row and a column less one cell... any
// witness the solver finds is checked.
func TestGridsDominated(t *testing.T) {
	for _, rc := range [][2]int{{2, 2}, {2, 3}, {3, 3}, {4, 4}, {5, 7}, {10, 10}} {
		if r := decide(t, grid(rc[0], rc[1])); r.Nondominated {
			t.Errorf("grid %dx%d nondominated", rc[0], rc[1])
		}
	}
}

// Majority: all w-subsets of n with w = ⌊n/2⌋+1 is nondominated for odd n
// and dominated for even n; the closed form agrees with the solver on the
// listed family for every threshold system over up to 10 nodes that is a
// k-arbiter, k = 1, 2, 3.
func TestThresholds(t *testing.T) {
	for n := 1; n <= 41; n++ {
		r, err := Decide(context.Background(), set.NewThreshold(n, n/2+1))
		if err != nil {
			t.Fatal(err)
		}
		if r.Nondominated != (n%2 == 1) {
			t.Errorf("majority of %d: nondominated = %v", n, r.Nondominated)
		}
	}
	for n := 1; n <= 10; n++ {
		for w := 1; w <= n; w++ {
			for k := 1; k <= 3; k++ {
				dom, arbiter := ThresholdDominated(n, w, k)
				if !arbiter {
					continue
				}
				th := set.NewThreshold(n, w)
				th.K = k
				r, err := Decide(context.Background(), th)
				if err != nil {
					t.Fatal(err)
				}
				if r.Nondominated == dom {
					t.Fatalf("n=%d w=%d k=%d: closed form inconsistent", n, w, k)
				}
				listed := uniform(t, n, w, k)
				want, smallest := bruteDominated(listed)
				if want != dom {
					t.Fatalf("n=%d w=%d k=%d: closed form says dominated = %v, brute force %v", n, w, k, dom, want)
				}
				if dom {
					if r.Witness.Len() != smallest {
						t.Errorf("n=%d w=%d k=%d: closed-form witness has %d nodes, smallest is %d", n, w, k, r.Witness.Len(), smallest)
					}
					if err := CheckWitness(context.Background(), th, r.Witness); err != nil {
						t.Errorf("n=%d w=%d k=%d: %v", n, w, k, err)
					}
					checkWitnessBrute(t, listed, r.Witness)
				}
			}
		}
	}
}

// Kuo's Corollary 4 for coteries: a join is nondominated iff both inputs
// are, on random small joins.
func TestJoinsCoteries(t *testing.T) {
	testJoins(t, 1, 300)
}

func testJoins(t *testing.T, k, cases int) { testJoinsWith(t, k, cases, join) }

func testJoinsWith(t *testing.T, k, cases int, join func(c1 *set.Family, x int, c2 *set.Family) *set.Family) {
	r := rand.New(rand.NewPCG(uint64(k), 77))
	seen := [2]int{}
	for i := range cases {
		c1 := randomArbiter(r, 2+r.IntN(6), k, 3+r.IntN(12))
		c2 := randomArbiter(r, 2+r.IntN(6), k, 3+r.IntN(12))
		if len(c1.Quorums) == 0 || len(c2.Quorums) == 0 {
			continue
		}
		x := c1.Quorums[0].Elements()[0]
		j := join(c1, x, c2)
		// The join by the general engines: Decide would use Corollary 4
		// itself on a join it recognises.
		nd1, nd2 := decide(t, c1).Nondominated, decide(t, c2).Nondominated
		nd3 := decideUsing(t, j, allEngines&^useStructure).Nondominated
		if nd3 != (nd1 && nd2) {
			t.Fatalf("case %d: ND(C1)=%v ND(C2)=%v but ND(join)=%v\nC1=%v\nC2=%v\njoin=%v", i, nd1, nd2, nd3, c1, c2, j)
		}
		if nd3 {
			seen[0]++
		} else {
			seen[1]++
		}
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Errorf("joins nondominated/dominated: %v: the sample misses a case", seen)
	}
}

// MakeND's result dominates the input, intersects, and is nondominated.
func TestMakeND(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 300 {
		k := 1 + i%2
		f := randomArbiter(r, 2+r.IntN(9), k, 3+r.IntN(15))
		if len(f.Quorums) == 0 {
			continue
		}
		g, added, err := MakeND(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if dom, _ := bruteDominated(g); dom {
			t.Fatalf("MakeND(%v) = %v is dominated", f, g)
		}
		wasDom, _ := bruteDominated(f)
		if wasDom != (added > 0) {
			t.Fatalf("MakeND(%v) added %d witnesses", f, added)
		}
		for _, in := range kIntersections(masks(g), k+1) {
			if in == 0 {
				t.Fatalf("MakeND(%v) = %v is not a %d-arbiter", f, g, k)
			}
		}
		// Every quorum of f contains a quorum of g.
		for a := range f.Quorums {
			ok := false
			for b := range g.Quorums {
				if set.Subset(&g.Quorums[b], &f.Quorums[a]) {
					ok = true
					break
				}
			}
			if !ok {
				t.Fatalf("MakeND(%v) = %v does not dominate it", f, g)
			}
		}
	}
	g, added, err := MakeND(context.Background(), pg(t, 3))
	if err != nil || added == 0 {
		t.Fatalf("MakeND(PG(2,3)): %d added, %v", added, err)
	}
	if r := decide(t, g); !r.Nondominated {
		t.Errorf("MakeND(PG(2,3)) still dominated by %v", r.Witness)
	}
}

func TestDecideBruteForceArbiters(t *testing.T) {
	testDecideBruteForce(t, 2, 1500)
	testDecideBruteForce(t, 3, 500)
}

func TestJoinsArbiters(t *testing.T) {
	testJoins(t, 2, 200)
}

// Kuo's examples: the uniform 2-arbiter over 4 nodes (all 3-subsets) is
// nondominated, and so is his join C1 ⊕4 C2 of two of them (Section 4).
// His 2-arbiter of all 4-subsets of 5 nodes (Section 3) he calls
// nondominated, but H = {1,2,3} contains no quorum and meets every
// pairwise intersection (each has 3 of the 5 nodes): it is dominated, as
// (k+1)w = 12 ≥ kn+2 = 12 says.
func TestKuoExamples(t *testing.T) {
	u4 := uniform(t, 4, 3, 2)
	if r := decide(t, u4); !r.Nondominated {
		t.Errorf("uniform 2-arbiter over 4 nodes dominated by %v", r.Witness)
	}
	j := join(u4, 3, u4)
	if len(j.Quorums) != 13 || j.N != 7 {
		t.Fatalf("join has %d quorums over %d nodes, Kuo lists 13 over 7", len(j.Quorums), j.N)
	}
	if r := decide(t, j); !r.Nondominated {
		t.Errorf("Kuo's join C1 ⊕4 C2 dominated by %v", r.Witness)
	}
	u5 := uniform(t, 5, 4, 2)
	r := decide(t, u5)
	if r.Nondominated || r.Witness.Len() != 3 {
		t.Errorf("all 4-subsets of 5 as a 2-arbiter: %+v, want dominated by 3 nodes", r)
	}
	checkWitnessBrute(t, u5, r.Witness)
	// His D (C without {1,2,3,5}) is dominated too.
	d := family(5, 2, []int{0, 1, 2, 3}, []int{0, 1, 3, 4}, []int{0, 2, 3, 4}, []int{1, 2, 3, 4})
	if r := decide(t, d); r.Nondominated {
		t.Error("Kuo's D is nondominated")
	}
	// Manabe's uniform k-arbiter w = ⌊kn/(k+1)⌋+1 is nondominated iff
	// n ≡ 1 (mod k+1): checked against the listed families.
	for k := 1; k <= 3; k++ {
		for n := 2; n <= 9; n++ {
			w := k*n/(k+1) + 1
			r := decide(t, uniform(t, n, w, k))
			if r.Nondominated != (n%(k+1) == 1) {
				t.Errorf("uniform %d-arbiter over %d nodes: nondominated = %v", k, n, r.Nondominated)
			}
		}
	}
}

// Kuo's Theorem 6 (after Kuo and Huang 1998): a coterie is nondominated iff
// AV(1/2) = 1/2, that is, iff exactly half of the 2^n subsets contain a
// quorum; Theorem 7: for a k-arbiter, AV(1/2) = 1/2 implies nondominated
// (not conversely: the uniform 2-arbiter over 4 nodes has AV(1/2) = 5/16).
func TestAvailabilityCrossCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for i := range 1000 {
		k := 1 + i%3
		f := randomArbiter(r, 2+r.IntN(11), k, 4+r.IntN(25))
		if len(f.Quorums) == 0 {
			continue
		}
		qs := masks(f)
		live := 0
		for s := uint32(0); s < 1<<f.N; s++ {
			for _, q := range qs {
				if q&^s == 0 {
					live++
					break
				}
			}
		}
		half := live*2 == 1<<f.N
		nd := decide(t, f).Nondominated
		if k == 1 && nd != half {
			t.Fatalf("coterie %v: nondominated %v but AV(1/2) = %d/2^%d", f, nd, live, f.N)
		}
		if half && !nd {
			t.Fatalf("%d-arbiter %v: AV(1/2) = 1/2 but dominated", k, f)
		}
	}
}
