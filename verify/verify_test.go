package verify

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

func mustVerify(tb testing.TB, sys set.System, opts Options) *Report {
	tb.Helper()
	r, err := Verify(context.Background(), sys, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func fam(f *set.Family) set.System { return set.System{Family: f} }

// checkReport checks the report's own consistency and every witness it
// carries against the system, so that no test can pass on a fake witness.
func checkReport(tb testing.TB, sys set.System, r *Report) {
	tb.Helper()
	valid := true
	for _, c := range r.Checks {
		if !c.Info && !c.OK {
			valid = false
		}
		if c.Witness == nil {
			if !c.OK && !c.Info && !c.Undecided {
				tb.Errorf("check %s failed without a witness", c.Name)
			}
			continue
		}
		switch {
		case c.Name == "intersection" && sys.HK != nil:
			checkHKWitness(tb, sys.HK, c.Witness)
		case c.Name == "intersection" && sys.Family.IsThreshold():
			checkThresholdWitness(tb, sys.Family, c.Witness)
		case c.Name == "intersection":
			checkDisjointWitness(tb, sys.Family, sys.Family.K+1, c.Witness.Quorums)
		case c.Name == "minimality":
			f := sys.Family
			if sys.HK != nil {
				f = sys.HK.Level(c.H)
			}
			i, j := c.Witness.Quorums[0], c.Witness.Quorums[1]
			if i == j || !set.Subset(&f.Quorums[i], &f.Quorums[j]) {
				tb.Errorf("minimality witness %v: quorum %d ⊄ quorum %d", c.Witness.Quorums, i, j)
			}
		}
	}
	if r.Valid != valid {
		tb.Errorf("Valid = %v, checks say %v", r.Valid, valid)
	}
}

// checkThresholdWitness checks that the witness sets are quorums of the
// threshold family (w-subsets), at most k+1 of them, with no common node.
func checkThresholdWitness(tb testing.TB, f *set.Family, w *Witness) {
	tb.Helper()
	if len(w.Sets) == 0 || len(w.Sets) > f.K+1 {
		tb.Fatalf("threshold witness has %d sets, want 1..%d", len(w.Sets), f.K+1)
	}
	acc := set.Full(f.N)
	for _, s := range w.Sets {
		q := set.Of(s...)
		if q.Len() != f.Threshold || len(s) != f.Threshold {
			tb.Fatalf("witness set %v is not a %d-subset", s, f.Threshold)
		}
		if m, _ := q.Max(); m >= f.N {
			tb.Fatalf("witness set %v leaves the %d nodes", s, f.N)
		}
		acc.Intersect(acc, q)
	}
	if !acc.IsEmpty() {
		tb.Fatalf("threshold witness %v shares %v", w.Sets, acc)
	}
}

// checkHKWitness checks that the witness pattern is critical, that every
// request gets a quorum of its level, and that they share no node.
func checkHKWitness(tb testing.TB, a *set.HK, w *Witness) {
	tb.Helper()
	if !IsCritical(w.Pattern, a.K) {
		tb.Fatalf("witness pattern %v is not critical for k = %d", w.Pattern, a.K)
	}
	if len(w.Requests) != len(w.Pattern) {
		tb.Fatalf("witness has %d requests for pattern %v", len(w.Requests), w.Pattern)
	}
	acc := set.Full(a.N)
	for i, rq := range w.Requests {
		if rq.H != w.Pattern[i] {
			tb.Fatalf("request %d has h = %d, pattern says %d", i, rq.H, w.Pattern[i])
		}
		l := a.Level(rq.H)
		if l == nil {
			tb.Fatalf("request %d: no level h = %d", i, rq.H)
		}
		var q *set.Set
		if l.IsThreshold() {
			q = set.Of(rq.Set...)
			if rq.Quorum != -1 || q.Len() != l.Threshold || len(rq.Set) != l.Threshold {
				tb.Fatalf("request %d: %v is not a %d-subset", i, rq.Set, l.Threshold)
			}
		} else {
			if rq.Quorum < 0 || rq.Quorum >= len(l.Quorums) {
				tb.Fatalf("request %d: no quorum %d in level %d", i, rq.Quorum, rq.H)
			}
			q = &l.Quorums[rq.Quorum]
		}
		acc.Intersect(acc, q)
	}
	if !acc.IsEmpty() {
		tb.Fatalf("witness %v: the assigned quorums share %v", w.Requests, acc)
	}
}

// Kuo, Section 2.2: all 3-subsets of {1,2,3,4} form a 2-arbiter; Section
// 2.1: {{1,2},{2,3},{1,3}} is a coterie, but no 2-arbiter.
func TestKuoExamples(t *testing.T) {
	f := fromLists(4, 2, []int{1, 2, 3}, []int{1, 2, 4}, []int{1, 3, 4}, []int{2, 3, 4})
	r := mustVerify(t, fam(f), Options{})
	checkReport(t, fam(f), r)
	if !r.Valid {
		t.Errorf("Kuo's 2-arbiter fails: %+v", r.Failed())
	}
	if f.K = 3; mustVerify(t, fam(f), Options{}).Valid {
		t.Error("all 3-subsets of 4 nodes pass as a 3-arbiter; 4 of them share nothing")
	}

	g := fromLists(3, 1, []int{1, 2}, []int{2, 3}, []int{1, 3})
	if r := mustVerify(t, fam(g), Options{}); !r.Valid {
		t.Errorf("Kuo's coterie fails as a coterie: %+v", r.Failed())
	}
	g.K = 2
	r = mustVerify(t, fam(g), Options{})
	checkReport(t, fam(g), r)
	c := r.Check("intersection", 0)
	if r.Valid || c.OK || c.Witness == nil || !slices.Equal(c.Witness.Quorums, []int{0, 1, 2}) {
		t.Errorf("Kuo's coterie as a 2-arbiter: valid %v, check %+v, want witness [0 1 2]", r.Valid, c)
	}
	if r.Quorums.Cmp(big.NewInt(3)) != 0 || r.N != 3 || r.K != 2 {
		t.Errorf("report header n=%d k=%d quorums=%v", r.N, r.K, r.Quorums)
	}
}

// maekawa builds an owned family from Maekawa's printed S_i (1-based).
func maekawa(n int, sets map[int][]int) *set.Family {
	f := set.NewFamily(n)
	for i := 1; i <= n; i++ {
		s, ok := sets[i]
		if !ok {
			continue
		}
		q := set.New(n)
		for _, v := range s {
			q.Add(v - 1)
		}
		f.Add(q, i-1)
	}
	return f
}

// Maekawa's Figure 1(b) and 1(c): projective planes with N = 7 and 13
// satisfy (a)–(d); Section 7's degenerate N = 5 example keeps (a) and (b)
// but not (c) or (d).
func TestMaekawaFigures(t *testing.T) {
	fig1b := maekawa(7, map[int][]int{1: {1, 2, 3}, 4: {1, 4, 5}, 6: {1, 6, 7}, 2: {2, 4, 6},
		5: {2, 5, 7}, 7: {3, 4, 7}, 3: {3, 5, 6}})
	fig1c := maekawa(13, map[int][]int{1: {1, 2, 3, 4}, 5: {1, 5, 6, 7}, 8: {1, 8, 9, 10},
		11: {1, 11, 12, 13}, 2: {2, 5, 8, 11}, 6: {2, 6, 9, 12}, 7: {2, 7, 10, 13},
		10: {3, 5, 10, 12}, 3: {3, 6, 8, 13}, 9: {3, 7, 9, 11}, 13: {4, 5, 9, 13},
		4: {4, 6, 10, 11}, 12: {4, 7, 8, 12}})
	deg5 := maekawa(5, map[int][]int{1: {1, 2, 3}, 2: {2, 4}, 3: {3, 5, 4}, 4: {1, 4, 5}, 5: {2, 5}})
	for _, tt := range []struct {
		name string
		f    *set.Family
		want map[string]bool
	}{
		{"fig1b", fig1b, map[string]bool{"intersection": true, "minimality": true, "owner_in_quorum": true,
			"equal_size": true, "equal_responsibility": true, "projective_plane": true}},
		{"fig1c", fig1c, map[string]bool{"intersection": true, "minimality": true, "owner_in_quorum": true,
			"equal_size": true, "equal_responsibility": true, "projective_plane": true}},
		{"degenerate5", deg5, map[string]bool{"intersection": true, "minimality": true, "owner_in_quorum": true,
			"equal_size": false, "equal_responsibility": false, "projective_plane": false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := mustVerify(t, fam(tt.f), Options{})
			checkReport(t, fam(tt.f), r)
			if !r.Valid {
				t.Errorf("invalid: %+v", r.Failed())
			}
			for name, ok := range tt.want {
				c := r.Check(name, 0)
				if c == nil || c.OK != ok {
					t.Errorf("%s = %+v, want ok = %v", name, c, ok)
				}
			}
		})
	}
	// S_3 = {3,4,5} and S_4 = {1,4,5} meet in {4,5}.
	if c := mustVerify(t, fam(deg5), Options{}).Check("projective_plane", 0); !slices.Equal(c.Witness.Quorums, []int{2, 3}) ||
		!slices.Equal(c.Witness.Nodes, []int{3, 4}) {
		t.Errorf("projective_plane witness %+v, want quorums [2 3] nodes [3 4]", c.Witness)
	}
	// In the degenerate set, S_2 = {2,4} and S_5 = {2,5} are the smallest
	// and S_1 the first largest; node 1 is in 2 sets, node 2 in 3.
	r := mustVerify(t, fam(deg5), Options{})
	if c := r.Check("equal_size", 0); !slices.Equal(c.Witness.Quorums, []int{1, 0}) {
		t.Errorf("equal_size witness %v, want [1 0] (S_2, S_1)", c.Witness.Quorums)
	}
	if c := r.Check("equal_responsibility", 0); !slices.Equal(c.Witness.Nodes, []int{0, 1}) {
		t.Errorf("equal_responsibility witness %v, want nodes [0 1]", c.Witness.Nodes)
	}
}

// Dropping a node from one line of PG(2,q) breaks pairwise intersection:
// the q other lines through that node now miss the shortened line.
func TestMutationProjectivePlane(t *testing.T) {
	for _, q := range []int{2, 3, 4, 5, 8, 7} {
		f := testsys.Plane(t, q)
		r := mustVerify(t, fam(f), Options{})
		checkReport(t, fam(f), r)
		if !r.Valid || !r.Check("projective_plane", 0).OK {
			t.Fatalf("PG(2,%d) fails: %+v", q, r.Checks)
		}
		for _, line := range []int{0, len(f.Quorums) / 2, len(f.Quorums) - 1} {
			g := f.Clone()
			v, _ := g.Quorums[line].Max()
			g.Quorums[line].Remove(v)
			r := mustVerify(t, fam(g), Options{})
			checkReport(t, fam(g), r)
			c := r.Check("intersection", 0)
			if r.Valid || c.OK || !slices.Contains(c.Witness.Quorums, line) {
				t.Errorf("PG(2,%d) less node %d of line %d: %+v", q, v, line, c)
			}
			// Every other line through v is disjoint from the shortened
			// line; the witness pairs it with the first of them.
			other := c.Witness.Quorums[0] + c.Witness.Quorums[1] - line
			if !g.Quorums[other].Has(v) {
				t.Errorf("witness partner %d does not pass through the removed node %d", other, v)
			}
		}
	}
}

// Dropping one hyperplane x_1 = b_1 from a cube quorum keeps the (k+1)-wise
// intersection (the shortened quorum still holds k hyperplanes, and k+1
// quorums find a common node by giving each its own coordinate, the
// shortened one one of x_2..x_{k+1}), but the quorum is now contained in
// every quorum that agrees with it on b_2..b_{k+1}: minimality fails.
// Dropping a node instead breaks the intersection.
func TestMutationCube(t *testing.T) {
	for _, c := range []struct{ a, k int }{{2, 1}, {3, 1}, {3, 2}, {4, 2}, {3, 3}, {2, 3}} {
		f := cubeArbiter(c.a, c.k)
		r := mustVerify(t, fam(f), Options{})
		checkReport(t, fam(f), r)
		if !r.Valid {
			t.Fatalf("cube a=%d k=%d fails: %+v", c.a, c.k, r.Failed())
		}
		n := len(f.Quorums)
		for _, b := range []int{0, n / 3, n - 1} {
			g := f.Clone()
			// Quorum b is indexed by its coordinates; remove x_1 = b_1.
			b1 := digits(b, c.a, c.k+1)[0]
			for v := range g.N {
				if digits(v, c.a, c.k+1)[0] == b1 {
					ok := false
					for i, x := range digits(v, c.a, c.k+1)[1:] {
						if x == digits(b, c.a, c.k+1)[i+1] {
							ok = true
						}
					}
					if !ok {
						g.Quorums[b].Remove(v)
					}
				}
			}
			r := mustVerify(t, fam(g), Options{})
			checkReport(t, fam(g), r)
			if !r.Check("intersection", 0).OK {
				t.Errorf("cube a=%d k=%d less a hyperplane of quorum %d: intersection fails: %+v",
					c.a, c.k, b, r.Check("intersection", 0))
			}
			m := r.Check("minimality", 0)
			if m.OK || m.Witness.Quorums[0] != b {
				t.Errorf("cube a=%d k=%d less a hyperplane of quorum %d: minimality %+v, want quorum %d inside another",
					c.a, c.k, b, m, b)
			}
		}
	}
}

func TestMutationSuperset(t *testing.T) {
	f := testsys.Plane(t, 3)
	g := f.Clone()
	sup := g.Quorums[4].Clone()
	sup.Add(0)
	sup.Add(12)
	g.Add(sup, set.NoOwner)
	r := mustVerify(t, fam(g), Options{})
	checkReport(t, fam(g), r)
	c := r.Check("minimality", 0)
	if r.Valid || c.OK || !slices.Equal(c.Witness.Quorums, []int{4, len(g.Quorums) - 1}) {
		t.Errorf("superset of line 4: %+v, want witness [4 %d]", c, len(g.Quorums)-1)
	}
	if !r.Check("intersection", 0).OK {
		t.Error("a superset quorum broke intersection")
	}
	// The same line twice is a repeat; with different owners it is not.
	h := f.Clone()
	h.Add(&f.Quorums[2], set.NoOwner)
	if c := mustVerify(t, fam(h), Options{}).Check("minimality", 0); c.OK || !slices.Equal(c.Witness.Quorums, []int{2, 13}) {
		t.Errorf("repeated line: %+v", c)
	}
}

// The uniform k-arbiter, all w-subsets with w = ⌊kn/(k+1)⌋+1 (Manabe and
// Tajima, Section 2.3), is decided by counting; one node less fails, and
// both agree with brute-force enumeration.
func TestThresholdFamilies(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for k := 1; k <= 4; k++ {
			for w := 1; w <= n; w++ {
				f := set.NewThreshold(n, w)
				f.K = k
				r := mustVerify(t, fam(f), Options{})
				checkReport(t, fam(f), r)
				if uniform := k*n/(k+1) + 1; w == uniform && !r.Valid {
					t.Errorf("uniform %d-arbiter over %d nodes (w = %d) fails", k, n, w)
				}
				if w == k*n/(k+1) && w > 0 && r.Valid && n > 1 {
					t.Errorf("all %d-subsets of %d nodes, one less than uniform, pass as a %d-arbiter", w, n, k)
				}
				if bruteFeasible(int(r.Quorums.Int64()), k+1) != nil || r.Quorums.Int64() > 40 && k > 2 {
					continue // keep the test fast; smaller cases cover the formula
				}
				b := mustVerify(t, fam(f), Options{Method: Brute})
				checkReport(t, fam(f), b)
				if r.Valid != b.Valid {
					t.Errorf("n=%d k=%d w=%d: counting %v, brute %v", n, k, w, r.Valid, b.Valid)
				}
			}
		}
	}
	// Far too many quorums to list: 10^6 nodes.
	f := set.NewThreshold(1000000, 500001)
	r := mustVerify(t, fam(f), Options{})
	if !r.Valid || r.Quorums != nil {
		t.Errorf("majority over 10^6 nodes: valid %v, count %v (want nil: too large)", r.Valid, r.Quorums)
	}
	if c := binomial(1000, 500); c == nil || c.BitLen() < 990 {
		t.Errorf("C(1000, 500) = %v", c)
	}
	f.K = 2
	r = mustVerify(t, fam(f), Options{})
	checkReport(t, fam(f), r)
	if r.Valid {
		t.Error("majority over 10^6 nodes passes as a 2-arbiter")
	}
}

func TestVerifyAgreesWithBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	iters := 2000
	if testing.Short() {
		iters = 300
	}
	for it := range iters {
		n := 1 + r.IntN(10)
		f := testsys.Family(r, n, 1+r.IntN(12), 0.3+0.65*r.Float64())
		f.K = 1 + r.IntN(4)
		a := mustVerify(t, fam(f), Options{})
		b := mustVerify(t, fam(f), Options{Method: Brute})
		checkReport(t, fam(f), a)
		checkReport(t, fam(f), b)
		if a.Valid != b.Valid || a.Check("intersection", 0).OK != b.Check("intersection", 0).OK {
			t.Fatalf("#%d %v: search %+v, brute %+v", it, f, a.Checks[0], b.Checks[0])
		}
	}
}
