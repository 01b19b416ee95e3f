package domination

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/crillab/gophersat/solver"
)

// scramble returns f with its nodes renumbered by a random permutation and
// its quorums shuffled: the same system to a reader who trusts only the
// quorums, and no longer the constructor's labelling.
func scramble(r *rand.Rand, f *set.Family) *set.Family {
	perm := r.Perm(f.N)
	g := set.NewFamily(f.N)
	for _, i := range r.Perm(len(f.Quorums)) {
		s := set.New(f.N)
		for v := range f.Quorums[i].All() {
			s.Add(perm[v])
		}
		g.Add(s, set.NoOwner)
	}
	return g
}

// nearfieldPlane returns the projective plane of order 9 over the regular
// nearfield of order 9 (GF(9) with a∘b = a·b when b is a square, a³·b
// otherwise): the Hall plane of order 9, which is not Desarguesian. Affine
// point (x, y) is 9x+y, the slope m at infinity 81+m, the vertical
// direction 90; the lines are y = x∘m + c, x = c and the line at infinity.
// The nearfield is right-distributive, so (x1−x2)∘m = y1−y2 has one
// solution m: two affine points span one line.
func nearfieldPlane(t testing.TB) *set.Family {
	t.Helper()
	g, err := newGF(9)
	if err != nil {
		t.Fatal(err)
	}
	square := make([]bool, 9)
	for x := 1; x < 9; x++ {
		square[g.mul[x][x]] = true
	}
	circ := func(a, b int) int {
		if b == 0 || square[b] {
			return g.mul[a][b]
		}
		return g.mul[g.mul[g.mul[a][a]][a]][b]
	}
	f := set.NewFamily(91)
	f.Kind = "hall"
	for m := range 9 {
		for c := range 9 {
			s := set.Of(81 + m)
			for x := range 9 {
				s.Add(9*x + g.add[circ(x, m)][c])
			}
			f.Add(s, set.NoOwner)
		}
	}
	for c := range 9 {
		s := set.Of(90)
		for y := range 9 {
			s.Add(9*c + y)
		}
		f.Add(s, set.NoOwner)
	}
	inf := set.New(91)
	for v := 81; v < 91; v++ {
		inf.Add(v)
	}
	f.Add(inf, set.NoOwner)
	return f
}

// isWitness reports, from the definitions, whether h meets every quorum of
// f and contains none.
func isWitness(f *set.Family, h *set.Set) bool {
	for i := range f.Quorums {
		if !set.Intersects(&f.Quorums[i], h) || set.Subset(&f.Quorums[i], h) {
			return false
		}
	}
	return true
}

// The smallest witnesses of PG(2,q), q ≤ 9, are its smallest nontrivial
// blocking sets: 6 points for q = 3, 7 for q = 4 (a Baer subplane), 9 for
// q = 5, each meeting Bruen's bound ⌈q+√q+1⌉; 12 = 3(q+1)/2 for q = 7 (a
// lower bound for prime q, Blokhuis 1994, attained by the projective
// triangle); 13 = q + q/2 + 1 for q = 8 (a Rédei-type blocking set), one
// more than Bruen's 12; 13 for q = 9 (a Baer subplane, Bruen's bound). The
// planes come from the test's own dot-product construction, from
// construct.ProjectivePlane, and with nodes and lines scrambled: the proof
// must not depend on the labelling.
func TestSmallestProjectivePlanes(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	ctx := context.Background()
	for _, tt := range []struct {
		q, want int
		proof   Proof
	}{
		{3, 6, ProofBruen}, {4, 7, ProofBruen}, {5, 9, ProofBruen},
		{7, 12, ProofBruenSymmetry}, {8, 13, ProofBruenSymmetry}, {9, 13, ProofBruen},
	} {
		built, err := construct.ProjectivePlane(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []struct {
			name string
			f    *set.Family
		}{{"dot product", pg(t, tt.q)}, {"construct", built}, {"scrambled", scramble(r, built)}} {
			got, err := DecideSmallest(ctx, in.f)
			if err != nil {
				t.Fatalf("PG(2,%d) %s: %v", tt.q, in.name, err)
			}
			if got.Nondominated || !got.Smallest || got.Witness.Len() != tt.want || got.Proof != tt.proof || got.PlaneOrder != tt.q {
				t.Errorf("PG(2,%d) %s: witness %v (%d points), proof %q, plane order %d; want %d points, proof %q",
					tt.q, in.name, got.Witness, got.Witness.Len(), got.Proof, got.PlaneOrder, tt.want, tt.proof)
			}
			if err := CheckWitness(ctx, in.f, got.Witness); err != nil || !isWitness(in.f, got.Witness) {
				t.Errorf("PG(2,%d) %s: witness %v fails the check: %v", tt.q, in.name, got.Witness, err)
			}
		}
	}
}

// The Hall plane of order 9 is a projective plane but not PG(2,9): the
// search may not use PG(2,9)'s collineations, and still finds a Baer
// subplane of 13 points (the points with coordinates in GF(3)), minimum by
// Bruen's bound.
func TestSmallestNonDesarguesianPlane(t *testing.T) {
	ctx := context.Background()
	f := nearfieldPlane(t)
	p := asPlane(f)
	if p == nil {
		t.Fatal("the nearfield plane of order 9 is not recognised as a projective plane")
	}
	ref, err := desarguesian(9)
	if err != nil {
		t.Fatal(err)
	}
	if iso, err := isomorphic(ctx, p, ref); err != nil || iso {
		t.Fatalf("the Hall plane of order 9 found isomorphic to PG(2,9) (%v)", err)
	}
	got, err := DecideSmallest(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Witness.Len() != 13 || got.Proof != ProofBruen || got.PlaneOrder != 9 {
		t.Errorf("Hall plane: witness of %d points, proof %q; want 13, bruen", got.Witness.Len(), got.Proof)
	}
	if err := CheckWitness(ctx, f, got.Witness); err != nil {
		t.Error(err)
	}
}

// asPlane accepts projective planes however labelled and rejects anything
// else, whatever the file's kind says.
func TestAsPlane(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9} {
		f := pg(t, q)
		if p := asPlane(f); p == nil || p.q != q {
			t.Errorf("PG(2,%d) not recognised", q)
		}
		if p := asPlane(scramble(r, f)); p == nil || p.q != q {
			t.Errorf("scrambled PG(2,%d) not recognised", q)
		}
	}
	moved := pg(t, 3)
	// Swap a point of line 0 for one off it: sizes and n stay right.
	var off int
	for off = 0; moved.Quorums[0].Has(off); off++ {
	}
	first, _ := moved.Quorums[0].Min()
	moved.Quorums[0].Remove(first)
	moved.Quorums[0].Add(off)
	extra := pg(t, 3)
	extra.Add(set.Of(0, 1, 2, 3, 4, 5), set.NoOwner)
	short := pg(t, 3)
	short.Quorums = short.Quorums[:12]
	arbiter := pg(t, 3)
	arbiter.K = 2
	cyclic := set.NewFamily(7) // {i, i+1, i+2} mod 7: sizes right, not a plane
	cyclic.Kind = "fpp"
	for i := range 7 {
		cyclic.Add(set.Of(i, (i+1)%7, (i+2)%7), set.NoOwner)
	}
	for _, tt := range []struct {
		name string
		f    *set.Family
	}{
		{"a point moved", moved}, {"an extra quorum", extra}, {"a line missing", short},
		{"k = 2", arbiter}, {"cyclic triples labelled fpp", cyclic}, {"grid", grid(3, 3)},
		{"threshold", set.NewThreshold(7, 4)},
	} {
		if p := asPlane(tt.f); p != nil {
			t.Errorf("%s: recognised as a projective plane of order %d", tt.name, p.q)
		}
	}
}

// isomorphic finds PG(2,q) in every labelling of it, for prime and prime
// power orders (where the quadrangle spans only a subplane).
func TestIsomorphic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9, 11, 16} {
		ref, err := desarguesian(q)
		if err != nil || ref == nil {
			t.Fatalf("desarguesian(%d): %v", q, err)
		}
		built, err := construct.ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []*set.Family{pg(t, q), built, scramble(r, built)} {
			if ok, err := isomorphic(ctx, asPlane(f), ref); !ok || err != nil {
				t.Errorf("PG(2,%d): not found isomorphic to the reference (%v)", q, err)
			}
		}
	}
}

// planeMasks returns the lines of a plane of at most 32 points as masks.
func planeMasks(p *plane) []uint32 {
	out := make([]uint32, len(p.lines))
	for l, pts := range p.lines {
		for _, v := range pts {
			out[l] |= 1 << v
		}
	}
	return out
}

// The lemmas of smallestInPlane, and the claim that its fixed-point
// questions lose no witness, checked against every witness of PG(2,3) and
// PG(2,4) (all 2^n sets) and, unless -short, every witness of 9 or 10
// points of PG(2,5): (1) every line meets a witness of b points in 1..b−q
// points, (2) the most any line meets is at least mMin, (3) on every such
// line L0, each other line through a point of L0 outside the witness meets
// it in at most 1+k−m points; and planeCase(b, m) is satisfiable iff some
// witness of b points has exactly m points on its fullest line.
func TestPlaneLemmasBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct{ q, lo, hi int }{{3, 0, 13}, {4, 0, 21}, {5, 9, 10}} {
		if testing.Short() && tt.q == 5 {
			continue
		}
		p := asPlane(pg(t, tt.q))
		lines := planeMasks(p)
		exists := map[[2]int]bool{} // (b, m)
		meets := make([]int, len(lines))
		visit := func(h uint32) {
			b := bits.OnesCount32(h)
			m := 0
			for l, line := range lines {
				meets[l] = bits.OnesCount32(h & line)
				if meets[l] == 0 || h&line == line {
					return // not a witness
				}
				m = max(m, meets[l])
			}
			k := b - tt.q
			for l, c := range meets {
				if c > k {
					t.Fatalf("PG(2,%d): witness %b meets line %d in %d > %d points", tt.q, h, l, c, k)
				}
			}
			if m < minMaxMeet(p, b) {
				t.Fatalf("PG(2,%d): witness %b of %d points meets no line in %d points or more", tt.q, h, b, minMaxMeet(p, b))
			}
			for l0, c := range meets {
				if c != m {
					continue
				}
				for _, r := range p.lines[l0] {
					if h&(1<<r) != 0 {
						continue
					}
					for _, l := range p.through[r] {
						if int(l) != l0 && meets[l] > 1+k-m {
							t.Fatalf("PG(2,%d): witness %b: line %d through %d meets it in %d > 1+k−m = %d", tt.q, h, l, r, meets[l], 1+k-m)
						}
					}
				}
			}
			exists[[2]int{b, m}] = true
		}
		if tt.lo == 0 {
			for h := uint32(0); h < 1<<p.n; h++ {
				visit(h)
			}
		} else {
			for b := tt.lo; b <= tt.hi; b++ {
				// Gosper's hack: every b-subset of n bits.
				for h := uint32(1)<<b - 1; h < 1<<p.n; {
					visit(h)
					c := h & -h
					r := h + c
					h = (((r ^ h) >> 2) / c) | r
				}
			}
		}
		lo, hi := tt.lo, tt.hi
		if lo == 0 {
			lo, hi = BruenBound(tt.q)-1, p.n
		}
		for b := lo; b <= hi; b++ {
			any := false
			for m := minMaxMeet(p, b); m <= b-tt.q; m++ {
				h, err := planeCase(ctx, p, b, m)
				if err != nil {
					t.Fatal(err)
				}
				if (h != nil) != exists[[2]int{b, m}] {
					t.Fatalf("PG(2,%d), %d points, fullest line %d: planeCase found %v, brute force says %v", tt.q, b, m, h, exists[[2]int{b, m}])
				}
				any = any || h != nil
			}
			for _, sym := range []bool{true, false} {
				h, err := planeWitness(ctx, p, b, sym)
				if err != nil {
					t.Fatal(err)
				}
				if (h != nil) != any || h != nil && (h.Len() != b || !isWitness(pg(t, tt.q), h)) {
					t.Fatalf("PG(2,%d), %d points, sym %v: planeWitness = %v, want one: %v", tt.q, b, sym, h, any)
				}
			}
		}
	}
}

// The plane path and the plain solver path agree on small planes, and both
// agree with MMCS: a smallest witness is a smallest minimal transversal
// (blocking set) that is not a line.
func TestSmallestPlaneVersusSolver(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{3, 4, 5} {
		if testing.Short() && q == 5 {
			continue
		}
		f := pg(t, q)
		geo, err := DecideSmallest(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := decideSmallest(ctx, f, false, solverOnly)
		if err != nil {
			t.Fatal(err)
		}
		if plain.Proof != ProofSolver || plain.Witness.Len() != geo.Witness.Len() {
			t.Errorf("PG(2,%d): solver %d points (%q), plane path %d (%q)", q, plain.Witness.Len(), plain.Proof, geo.Witness.Len(), geo.Proof)
		}
		smallest := -1
		err = Transversals(ctx, f, func(s *set.Set) bool {
			if s.Len() != q+1 && (smallest < 0 || s.Len() < smallest) {
				smallest = s.Len()
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if smallest != geo.Witness.Len() {
			t.Errorf("PG(2,%d): MMCS's smallest non-line blocking set has %d points, DecideSmallest %d", q, smallest, geo.Witness.Len())
		}
	}
}

// Systems that look like planes but are not (a quorum added or grown, a
// file that calls itself "fpp") take the solver path and agree with brute
// force.
func TestSmallestNearPlanes(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	base := pg(t, 3)
	plane, err := DecideSmallest(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*set.Family
	// PG(2,3) plus a smallest witness as a quorum: still a coterie.
	extra := base.Clone()
	extra.Add(plane.Witness.Clone(), set.NoOwner)
	cases = append(cases, extra)
	// A line grown by one point, in a few places.
	for range 5 {
		g := scramble(r, base)
		g.Kind = "fpp"
		l := r.IntN(len(g.Quorums))
		for {
			v := r.IntN(g.N)
			if !g.Quorums[l].Has(v) {
				g.Quorums[l].Add(v)
				break
			}
		}
		cases = append(cases, g)
	}
	for i, f := range cases {
		dom, smallest := bruteDominated(f)
		for _, path := range []struct {
			use   engines
			proof Proof
		}{{allEngines, ProofExhaustive}, {solverOnly, ProofSolver}} {
			got, err := decideSmallest(ctx, f, true, path.use)
			if err != nil {
				t.Fatal(err)
			}
			if got.Nondominated == dom || dom && (got.Witness.Len() != smallest || got.Proof != path.proof || got.PlaneOrder != 0 || got.LowerBound != smallest) {
				t.Fatalf("case %d %v: got %+v, brute force dominated %v smallest %d", i, f, got, dom, smallest)
			}
			if dom {
				checkWitnessBrute(t, f, got.Witness)
			}
		}
	}
}

// countdown is a context cancelled by the n-th call of its Done method: a
// cancellation after a fixed amount of work rather than of time. The
// solver loop asks for Done once per learned clause it reads, so a large n
// cancels a long search in its middle.
type countdown struct {
	context.Context
	mu   sync.Mutex
	n    int
	done chan struct{}
	err  error
}

func newCountdown(n int) *countdown {
	return &countdown{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *countdown) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n == 0 {
		c.err = context.Canceled
		close(c.done)
	}
	return c.done
}

func (c *countdown) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Cancellation reaches the solver: a search that would run for minutes
// (PG(2,7) without geometry, which must refute every 11-point set) returns
// once cancelled, and the solver really stops: it holds the
// one-solver-at-a-time semaphore until its goroutine ends, so the next
// Decide, which needs a solver, would hang otherwise.
func TestSmallestCancel(t *testing.T) {
	if raceDetector {
		t.Skip("under the race detector a cancelled solver finishes in the background (see solve)")
	}
	ctx := newCountdown(2000)
	_, err := decideSmallest(ctx, pg(t, 7), false, solverOnly)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	if r, err := Decide(context.Background(), pg(t, 5)); err != nil || r.Nondominated {
		t.Fatalf("Decide after a cancellation: %+v, %v", r, err)
	}
}

// Decide and DecideSmallest are safe for concurrent use: gophersat's
// solvers share a clause buffer, so solve lets one run at a time. Four
// goroutines deciding random systems agree with brute force (and, under
// -race, show no race).
func TestDecideConcurrent(t *testing.T) {
	var systems []*set.Family
	r := rand.New(rand.NewPCG(10, 10))
	for len(systems) < 200 {
		if f := randomArbiter(r, 4+r.IntN(10), 1+r.IntN(2), 5+r.IntN(25)); len(f.Quorums) > 0 {
			systems = append(systems, f)
		}
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			ctx, cancel := context.WithCancel(context.Background()) // certified mode too
			defer cancel()
			for i := g; i < len(systems); i += 4 {
				f := systems[i]
				dom, smallest := bruteDominated(f)
				got, err := DecideSmallest(ctx, f)
				if err != nil {
					errs <- err
					return
				}
				if got.Nondominated == dom || dom && got.Witness.Len() != smallest {
					errs <- fmt.Errorf("system %d %v: %+v, brute force dominated %v smallest %d", i, f, got, dom, smallest)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// The encodings say what they mean: for every assignment of up to 7
// literals, the clauses (with the assignment as units) are satisfiable iff
// the count is within bounds, for the binomial and the sequential
// encodings, guarded or not, and the totalizer from above and below.
func TestCardinalityEncodings(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 7; n++ {
		lits := make([]int, n)
		for i := range lits {
			lits[i] = i + 1
		}
		for k := 0; k <= n; k++ {
			for _, enc := range []string{"atMost", "atMostSeq", "atMostUnless", "atMostSeqUnless", "guarded", "atLeast", "totalizer"} {
				for x := range 1 << n {
					c := newCNF(n + 1) // variable n+1 guards atMostUnless
					switch enc {
					case "atMost":
						c.atMost(lits, k)
					case "atMostSeq":
						c.atMostSeq(lits, k)
					case "atMostUnless":
						c.atMost(lits, k, n+1)
						c.add(-(n + 1))
					case "atMostSeqUnless":
						c.atMostSeq(lits, k, n+1)
						c.add(-(n + 1))
					case "guarded": // the guard holds: no constraint
						c.atMost(lits, k, n+1)
						c.atMostSeq(lits, k, n+1)
						c.add(n + 1)
					case "atLeast":
						c.atLeast(lits, k)
					case "totalizer":
						out := c.totalizer(lits, k+1)
						if k >= 1 {
							c.add(out[k-1])
						}
						if k < n {
							c.add(-out[k])
						}
					}
					for i := range n {
						if x&(1<<i) != 0 {
							c.add(i + 1)
						} else {
							c.add(-(i + 1))
						}
					}
					count := bits.OnesCount(uint(x))
					want := count <= k
					switch enc {
					case "guarded":
						want = true
					case "atLeast":
						want = count >= k
					case "totalizer":
						want = count == k
					}
					st, err := solve(ctx, parsed(c.clauses, c.nvars))
					if err != nil {
						t.Fatal(err)
					}
					if (st == solver.Sat) != want {
						t.Fatalf("%s(n=%d, k=%d) with %d true: %v, want sat %v", enc, n, k, count, st, want)
					}
				}
			}
		}
	}
}
