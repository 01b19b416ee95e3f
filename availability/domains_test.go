package availability

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// bruteDomains is the oracle: the probability that a quorum of f is up,
// summed over every state of every node and every domain (2^(n+d)
// states), each state weighted by its exact probability.
func bruteDomains(f *set.Family, m Model) *big.Rat {
	n := f.N
	t := m.Tree
	d := t.Len()
	probs := append([]*big.Rat(nil), m.P...)
	for x := range d {
		probs = append(probs, t.P(x))
	}
	qs := f
	if f.IsThreshold() {
		qs, _ = f.Enumerate(1 << 20)
	}
	sum := new(big.Rat)
	one := big.NewRat(1, 1)
	live := set.New(n)
	for s := 0; s < 1<<(n+d); s++ {
		w := big.NewRat(1, 1)
		for i, p := range probs {
			if s>>i&1 == 1 {
				w.Mul(w, p)
			} else {
				w.Mul(w, new(big.Rat).Sub(one, p))
			}
		}
		if w.Sign() == 0 {
			continue
		}
		live.Clear()
		for v := range n {
			up := s>>v&1 == 1
			for _, a := range t.Above(v) {
				up = up && s>>(n+a)&1 == 1
			}
			if up {
				live.Add(v)
			}
		}
		for _, q := range qs.All() {
			if set.Subset(q, live) {
				sum.Add(sum, w)
				break
			}
		}
	}
	return sum
}

// zones puts n nodes in z zones round-robin (node v in zone v mod z) or
// in blocks, with the given probabilities, and a two-level layout when
// racks > 0 (zone i / rack j).
func layout(t testing.TB, n int, paths func(v int) string, ps map[string]string) *domain.Tree {
	t.Helper()
	tr := domain.New(n)
	for v := range n {
		if err := tr.Place(v, paths(v)); err != nil {
			t.Fatal(err)
		}
	}
	for path, p := range ps {
		d, ok := tr.Lookup(path)
		if !ok {
			t.Fatalf("no domain %s", path)
		}
		x, _ := new(big.Rat).SetString(p)
		if err := tr.SetP(d, x); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func rat(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

func must2(t testing.TB) func(*set.Family, error) *set.Family {
	return func(f *set.Family, err error) *set.Family {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// TestDomainAvailabilityBrute checks both exact methods against the sum
// over all node × domain states, for several kinds of systems and
// layouts (at most 16 variables each).
func TestDomainAvailabilityBrute(t *testing.T) {
	ctx := context.Background()
	grid3 := must2(t)(construct.Grid(3, 3, 9))
	hqc := must2(t)(construct.HQC([]int{3, 3}))
	fpp := must2(t)(construct.ProjectivePlane(2))
	wall := must2(t)(construct.CGrid(2, 3))
	cube := must2(t)(construct.Cube(2, 2, 0)) // a 2-arbiter over 8 nodes
	r := rand.New(rand.NewPCG(7, 22))
	randomF := randomFamily(r, 8, 6, 0.4)
	by3 := func(v int) string { return fmt.Sprintf("z%d", v%3) }
	blocks := func(v int) string { return fmt.Sprintf("z%d/r%d", v/4, v/2) }
	for _, tt := range []struct {
		name  string
		f     *set.Family
		paths func(int) string
		ps    map[string]string
		p     string
	}{
		{"majority-7", set.NewThreshold(7, 4), by3, map[string]string{"z0": "0.9", "z1": "0.8", "z2": "1/3"}, "0.7"},
		{"threshold-9-of-3-zones", set.NewThreshold(9, 5), by3, map[string]string{"z0": "0.999", "z1": "0.99", "z2": "0.5"}, "0.99"},
		{"grid-3x3", grid3, by3, map[string]string{"z0": "0.9", "z1": "0.8", "z2": "0.7"}, "0.9"},
		{"hqc-3x3-zones", hqc, func(v int) string { return fmt.Sprintf("z%d", v/3) }, map[string]string{"z0": "0.9", "z1": "0.95", "z2": "0.7"}, "0.8"},
		{"fpp-2", fpp, by3, map[string]string{"z0": "0.6", "z2": "0.7"}, "0.9"},
		{"cgrid-2x3", wall, blocks, map[string]string{"z0": "0.9", "z0/r1": "0.5", "z1/r2": "0.8"}, "0.75"},
		{"cube-2-arbiter", cube, blocks, map[string]string{"z0": "0.9", "z1": "0.6", "z0/r0": "0.7"}, "0.8"},
		{"random-8", randomF, blocks, map[string]string{"z0": "0.4", "z1/r3": "0.5"}, "0.6"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := layout(t, tt.f.N, tt.paths, tt.ps)
			m := UniformModel(tt.f.N, rat(tt.p), tr)
			// Give two nodes their own probability as well.
			m.P[0], m.P[tt.f.N-1] = rat("0.5"), rat("0.95")
			want := bruteDomains(tt.f, m)
			got, method, err := DomainAvailability(ctx, tt.f, m, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("%s: AV = %s, brute force %s", method, got.FloatString(12), want.FloatString(12))
			}
			if !tt.f.IsThreshold() {
				return
			}
			// The lifted BDD of the listed threshold agrees too.
			e, _ := tt.f.Enumerate(1 << 16)
			got2, err := LiftedAvailability(ctx, e, m, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got2.Cmp(want) != 0 {
				t.Fatalf("lifted BDD of the listed threshold: %s, brute force %s", got2.FloatString(12), want.FloatString(12))
			}
		})
	}
}

// TestDomainBothBrute checks reads, writes and "both at once" of
// read-write systems against brute force.
func TestDomainBothBrute(t *testing.T) {
	ctx := context.Background()
	grid3 := must2(t)(construct.Grid(3, 3, 9))
	// Rows of the 3×3 grid as reads, row ∪ column as writes.
	rows := family(9, []int{0, 1, 2}, []int{3, 4, 5}, []int{6, 7, 8})
	cols := family(9, []int{0, 3, 6}, []int{1, 4, 7}, []int{2, 5, 8})
	// 9 nodes in 3 zones, nodes 1 and 4 also in a rack of zone 0: 13
	// variables.
	by3 := func(v int) string {
		if v == 0 || v == 3 {
			return "z0/r1"
		}
		return fmt.Sprintf("z%d", v%3)
	}
	for _, tt := range []struct {
		name string
		r, w *set.Family
	}{
		{"threshold-3-and-7-of-9", set.NewThreshold(9, 3), set.NewThreshold(9, 7)},
		{"rows-columns", rows, cols},
		{"rows-grid", rows, grid3},
		{"threshold-and-list", set.NewThreshold(9, 4), cols},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := layout(t, 9, by3, map[string]string{"z0": "0.9", "z1": "0.8", "z0/r1": "0.6"})
			m := UniformModel(9, rat("0.85"), tr)
			pr, pw, both, err := DomainBoth(ctx, tt.r, tt.w, m, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteDomains(tt.r, m); pr.Cmp(want) != 0 {
				t.Errorf("reads %s, brute force %s", pr.FloatString(12), want.FloatString(12))
			}
			if want := bruteDomains(tt.w, m); pw.Cmp(want) != 0 {
				t.Errorf("writes %s, brute force %s", pw.FloatString(12), want.FloatString(12))
			}
			if want := bruteBoth(tt.r, tt.w, m); both.Cmp(want) != 0 {
				t.Errorf("both %s, brute force %s", both.FloatString(12), want.FloatString(12))
			}
		})
	}
}

// bruteBoth sums the states in which a read and a write quorum are up:
// 2^(n+d) states, each read side and write side tested directly.
func bruteBoth(r, w *set.Family, m Model) *big.Rat {
	n, t := r.N, m.Tree
	list := func(f *set.Family) *set.Family {
		if f.IsThreshold() {
			f, _ = f.Enumerate(1 << 20)
		}
		return f
	}
	r, w = list(r), list(w)
	probs := append([]*big.Rat(nil), m.P...)
	for x := range t.Len() {
		probs = append(probs, t.P(x))
	}
	one := big.NewRat(1, 1)
	sum := new(big.Rat)
	live := set.New(n)
	has := func(f *set.Family) bool {
		for _, q := range f.All() {
			if set.Subset(q, live) {
				return true
			}
		}
		return false
	}
	for s := 0; s < 1<<len(probs); s++ {
		wt := big.NewRat(1, 1)
		for i, p := range probs {
			if s>>i&1 == 1 {
				wt.Mul(wt, p)
			} else {
				wt.Mul(wt, new(big.Rat).Sub(one, p))
			}
		}
		live.Clear()
		for v := range n {
			up := s>>v&1 == 1
			for _, a := range t.Above(v) {
				up = up && s>>(n+a)&1 == 1
			}
			if up {
				live.Add(v)
			}
		}
		if has(r) && has(w) {
			sum.Add(sum, wt)
		}
	}
	return sum
}

// TestDomainIndependenceLimit: with every domain up for sure, the figures
// are exactly those of the availability polynomial.
func TestDomainIndependenceLimit(t *testing.T) {
	ctx := context.Background()
	for _, f := range []*set.Family{
		must2(t)(construct.ProjectivePlane(3)),
		must2(t)(construct.Grid(4, 4, 16)),
		must2(t)(construct.HQC([]int{3, 3, 3})),
		set.NewThreshold(25, 13),
	} {
		res, err := Compute(ctx, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr := domain.New(f.N)
		for v := range f.N {
			if err := tr.Place(v, fmt.Sprintf("r%d/z%d", v%2, v%5)); err != nil {
				t.Fatal(err)
			}
		}
		for d := range tr.Len() {
			_ = tr.SetP(d, big.NewRat(1, 1))
		}
		for _, p := range []string{"0.9", "0.99", "0.5"} {
			got, _, err := DomainAvailability(ctx, f, UniformModel(f.N, rat(p), tr), 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := res.Poly.AtRat(rat(p)); got.Cmp(want) != 0 {
				t.Errorf("%s n=%d p=%s: %s, polynomial %s", f.Kind, f.N, p, got.FloatString(15), want.FloatString(15))
			}
		}
	}
}

// TestDomainOneRack: a system whose every quorum lies in one rack is
// never more available than that rack.
func TestDomainOneRack(t *testing.T) {
	ctx := context.Background()
	// Nodes 0..3 in rack a (p = 0.9), the rest in rack b; quorums only
	// inside rack a.
	f := family(6, []int{0, 1}, []int{1, 2}, []int{2, 3}, []int{0, 3})
	tr := layout(t, 6, func(v int) string {
		if v < 4 {
			return "dc/a"
		}
		return "dc/b"
	}, map[string]string{"dc/a": "0.9", "dc": "0.99"})
	for _, p := range []string{"0.5", "0.99", "1"} {
		av, _, err := DomainAvailability(ctx, f, UniformModel(6, rat(p), tr), 0)
		if err != nil {
			t.Fatal(err)
		}
		bound := new(big.Rat).Mul(rat("0.9"), rat("0.99"))
		if av.Cmp(bound) > 0 {
			t.Errorf("p=%s: AV %s above the rack's %s", p, av.FloatString(10), bound.FloatString(10))
		}
		if p == "1" && av.Cmp(bound) != 0 {
			t.Errorf("p=1: AV %s, want exactly the rack's %s", av.FloatString(10), bound.FloatString(10))
		}
	}
}

// TestExactNines: 1 − AV is exact however close AV is to 1.
func TestExactNines(t *testing.T) {
	e := Exact{AV: rat("0.999999999999999999999")}
	if u := e.Unavailability(); u.Cmp(rat("1e-21")) != 0 {
		t.Fatalf("1 − AV = %s", u.String())
	}
	if n := e.Nines(); n < 20.999 || n > 21.001 {
		t.Fatalf("nines = %v, want 21", n)
	}
}
