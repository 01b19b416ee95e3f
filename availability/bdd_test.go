package availability

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// The BDD count agrees with brute force on random families, with every
// candidate order.
func TestBDDMatchesBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	for it := range 300 {
		n := 1 + r.IntN(20)
		f := randomFamily(r, n, 1+r.IntN(12), 0.1+0.5*r.Float64())
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range OrderCandidates(f) {
			b, err := BuildBDD(ctx, f, BDDOptions{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("case %d: %v\nBDD   %v\nbrute %v", it, f, got, want)
			}
		}
	}
}

// The top-down construction and apply make the same reduced diagram (the
// same size under the same order) and the same count as brute force, on
// random families, the constructions' families and every candidate order.
func TestBDDTopDownMatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	ctx := context.Background()
	var fs []*set.Family
	for range 200 {
		n := 1 + r.IntN(18)
		fs = append(fs, randomFamily(r, n, 1+r.IntN(40), 0.05+0.6*r.Float64()))
	}
	fs = append(fs, grid(4, 5), cube(2, 3), projectivePlane(t, 3), ok[*set.Family](t)(construct.Billiard(7)))
	for it, f := range fs {
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range OrderCandidates(f) {
			td, err := BuildBDD(ctx, f, BDDOptions{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			ap, err := BuildBDD(ctx, f, BDDOptions{Order: order, apply: true})
			if err != nil {
				t.Fatal(err)
			}
			if td.Size() != ap.Size() {
				t.Fatalf("case %d: %v: top-down %d nodes, apply %d", it, f, td.Size(), ap.Size())
			}
			for _, d := range []*BDD{td, ap} {
				got, err := d.Count(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("case %d: %v\nBDD   %v\nbrute %v", it, f, got, want)
				}
			}
		}
	}
}

// Both counting passes, in the order of the arena and level by level,
// agree with brute force.
func TestBDDCountPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	ctx := context.Background()
	fs := []*set.Family{grid(4, 4), cube(2, 2), projectivePlane(t, 3)}
	for range 100 {
		n := 1 + r.IntN(18)
		fs = append(fs, randomFamily(r, n, 1+r.IntN(20), 0.05+0.6*r.Float64()))
	}
	for it, f := range fs {
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, apply := range []bool{false, true} {
			d, err := BuildBDD(ctx, f, BDDOptions{apply: apply})
			if err != nil {
				t.Fatal(err)
			}
			for _, byLevel := range []bool{false, true} {
				c := counter{n: f.N, w: countWords(f.N), byLevel: byLevel}
				got, err := c.run(ctx, d)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("case %d (apply %v, by level %v): %v\nBDD   %v\nbrute %v", it, apply, byLevel, f, got, want)
				}
			}
		}
	}
}

// relabelled returns f with its nodes renamed by a random permutation and
// its quorums listed in a random order.
func relabelled(r *rand.Rand, f *set.Family) *set.Family {
	perm := r.Perm(f.N)
	g := set.NewFamily(f.N)
	g.K = f.K
	for _, i := range r.Perm(len(f.Quorums)) {
		s := set.New(f.N)
		for v := range f.Quorums[i].All() {
			s.Add(perm[v])
		}
		g.Add(s, set.NoOwner)
	}
	return g
}

// The coefficients the top-down construction counts as it makes the
// nodes equal both counting passes over the finished diagram and brute
// force, on random families (some with more than 64 quorums, so that the
// wider quorum sets are used) and on the constructions, with every
// candidate order.
func TestBDDCountedAsMadeMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	ctx := context.Background()
	var fs []*set.Family
	for range 120 {
		n := 1 + r.IntN(18)
		fs = append(fs, randomFamily(r, n, 1+r.IntN(150), 0.05+0.6*r.Float64()))
	}
	fs = append(fs, grid(4, 5), cube(2, 3), projectivePlane(t, 3), projectivePlane(t, 4), ok[*set.Family](t)(construct.Billiard(7)))
	// Wider than one word of quorums, against the product form.
	fs = append(fs, grid(9, 8))
	wide := 0
	for it, f := range fs {
		var want *Polynomial
		var err error
		if f.N <= 24 {
			want, err = Brute(ctx, f)
		} else {
			var r *Result
			r, err = Compute(ctx, f, Options{})
			if err == nil && r.Method != MethodProduct {
				t.Fatalf("case %d: reference by %q", it, r.Method)
			}
			want = r.Poly
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Quorums) > 64 {
			wide++
		}
		for _, order := range OrderCandidates(f) {
			d, err := BuildBDD(ctx, f, BDDOptions{Order: order, count: true})
			if err != nil {
				t.Fatal(err)
			}
			if d.poly == nil {
				t.Fatalf("case %d: the top-down construction counted nothing", it)
			}
			if !d.poly.Equal(want) {
				t.Fatalf("case %d: %v\ncounted as made %v\nbrute          %v", it, f, d.poly, want)
			}
			for _, byLevel := range []bool{false, true} {
				c := counter{n: d.n, w: countWords(d.n), byLevel: byLevel}
				got, err := c.run(ctx, d)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("case %d (by level %v): counted afterwards %v, want %v", it, byLevel, got, want)
				}
			}
		}
	}
	if wide < 10 {
		t.Errorf("only %d families with more than 64 quorums", wide)
	}
}

// A top-down construction stopped by the node budget and taken up again
// with larger budgets, as the search does, ends with the same diagram
// and coefficients as one run with room enough.
func TestBDDTopDownResumes(t *testing.T) {
	ctx := context.Background()
	for _, f := range []*set.Family{grid(5, 6), cube(3, 2), projectivePlane(t, 4), ok[*set.Family](t)(construct.Billiard(9))} {
		order := naturalOrder(f.N)
		whole, err := BuildBDD(ctx, f, BDDOptions{Order: order, count: true})
		if err != nil {
			t.Fatal(err)
		}
		var kept *manager
		var d *BDD
		stops := 0
		for b := 16; d == nil; b *= 2 {
			d, _, kept, err = buildBDD(ctx, f, BDDOptions{Order: order, Budget: b, count: true}, kept)
			switch {
			case err == nil:
			case errors.Is(err, ErrBudget) && kept != nil && kept.td != nil:
				stops++
			default:
				t.Fatalf("budget %d: %v (kept %v)", b, err, kept != nil)
			}
		}
		if stops == 0 {
			t.Fatalf("n = %d: the budget never stopped the construction", f.N)
		}
		if d.Size() != whole.Size() || !d.poly.Equal(whole.poly) {
			t.Fatalf("n = %d: resumed %d nodes, %v; whole %d nodes, %v", f.N, d.Size(), d.poly, whole.Size(), whole.poly)
		}
	}
}

// Relabelling a construction at random (nodes and the order of the
// quorums) never changes the polynomial the BDD method finds, whichever
// order the search settles on.
func TestBDDRelabelledConstructions(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 21))
	ctx := context.Background()
	for _, f := range []*set.Family{
		grid(5, 6), cube(3, 2), projectivePlane(t, 3), projectivePlane(t, 4),
		ok[*set.Family](t)(construct.Billiard(7)), ok[*set.Family](t)(construct.Billiard(9)),
	} {
		want, err := Compute(ctx, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			g := relabelled(r, f)
			got, err := Compute(ctx, g, Options{Method: MethodBDD})
			if err != nil {
				t.Fatal(err)
			}
			if got.Method != MethodBDD || !got.Poly.Equal(want.Poly) {
				t.Fatalf("n = %d relabelled: %q %v, want %v (by %q)", f.N, got.Method, got.Poly, want.Poly, want.Method)
			}
		}
	}
}

// The BDD reports its construction through set.Progress, in the stage the
// search names, and never with more done than its total.
func TestBDDProgress(t *testing.T) {
	ctx := context.Background()
	for _, apply := range []bool{false, true} {
		var calls int
		p := func(stage string, done, total int64) {
			calls++
			if stage != "building the BDD" || total >= 0 && done > total {
				t.Errorf("apply %v: progress %q %d of %d", apply, stage, done, total)
			}
		}
		f := ok[*set.Family](t)(construct.Billiard(9))
		if _, err := BuildBDD(ctx, f, BDDOptions{Order: naturalOrder(f.N), Progress: p, apply: apply}); err != nil {
			t.Fatal(err)
		}
		if calls == 0 {
			t.Errorf("apply %v: no progress reported", apply)
		}
	}
}

// Counting level by level splits the levels of 256 nodes or more between
// the cores: on the 10×10 grid (levels of thousands of nodes) it must give
// the product's closed form.
func TestCountByLevelWide(t *testing.T) {
	ctx := context.Background()
	f := ok[*set.Family](t)(construct.Grid(10, 10, 0))
	want, err := Compute(ctx, f, Options{})
	if err != nil || want.Method != MethodProduct {
		t.Fatalf("reference: %v, method %q", err, want.Method)
	}
	d, err := BuildBDD(ctx, f, BDDOptions{Order: naturalOrder(f.N)})
	if err != nil {
		t.Fatal(err)
	}
	widest := 0
	for _, l := range reachable(d, d.n).byLevel {
		widest = max(widest, len(l))
	}
	if widest < 256 {
		t.Fatalf("widest level %d nodes: the test no longer reaches the parallel count", widest)
	}
	c := counter{n: d.n, w: countWords(d.n), byLevel: true}
	got, err := c.run(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(want.Poly) {
		t.Fatalf("by level %v, closed form %v", got, want.Poly)
	}
}

// A grid's or cube's kind makes the search start with the natural order;
// the diagram is exact whatever the order, so a file that keeps the kind
// but numbers its nodes otherwise still gets the product's polynomial.
func TestBDDKindIsOnlyAHint(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 9))
	for _, f := range []*set.Family{
		ok[*set.Family](t)(construct.Grid(5, 6, 0)),
		ok[*set.Family](t)(construct.Cube(3, 2, 0)),
	} {
		want, err := Compute(ctx, f, Options{})
		if err != nil || want.Method != MethodProduct {
			t.Fatalf("%s: reference %v by %q", f.Kind, err, want.Method)
		}
		g := relabelled(r, f)
		g.Kind, g.Params = f.Kind, f.Params
		got, err := Compute(ctx, g, Options{Method: MethodBDD})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Poly.Equal(want.Poly) {
			t.Errorf("%s relabelled: BDD %v, product %v", f.Kind, got.Poly, want.Poly)
		}
	}
}

// TestCountInitStops: the table of (1+t)^g that a count starts with takes
// n²·w/2 words, a third of a second over 1,730 nodes; it stops once its
// context does (here after one poll, at g = 128 of 300), and is whole
// without a stop.
func TestCountInitStops(t *testing.T) {
	c := counter{n: 300, w: countWords(300)}
	if err := c.init(context.Background()); err != nil || len(c.binom[300]) != 301*c.w {
		t.Fatalf("init: %v", err)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 1}
	c = counter{n: 300, w: countWords(300)}
	if err := c.init(stop); !errors.Is(err, context.Canceled) {
		t.Errorf("init with a stopped context: err = %v after %d polls", err, stop.Calls)
	}
}
