package everykind_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// instances holds one small instance of every registered construction.
var instances = map[string]map[string]any{
	"bgrid":     {"cols": 2, "bands": 2},
	"billiard":  {"q": 3},
	"boostfpp":  {"order": 2, "b": 1},
	"byzantine": {"n": 5, "b": 1, "masking": true},
	"cgrid":     {"rows": 2, "cols": 3},
	"cube":      {"a": 2, "k": 1},
	"fpp":       {"order": 2},
	"grid":      {"n": 9},
	"hqc":       {"levels": "3,3"},
	"maekawa":   {"n": 7},
	"majority":  {"n": 5},
	"mgrid":     {"n": 9},
	"nucleus":   {"r": 3},
	"tree":      {"degree": 2, "height": 2},
	"triangle":  {"rows": 3},
	"uniform":   {"n": 5, "k": 2},
	"vote":      {"weights": "3,1,1,1,1"},
	"wall":      {"widths": "1,2,3"},
	"wheel":     {"n": 5},
}

// TestInstances checks that the table covers the registry.
func TestInstances(t *testing.T) {
	for _, s := range construct.Specs() {
		if _, ok := instances[s.Name]; !ok {
			t.Errorf("no instance of %s: add one to the table", s.Name)
		}
	}
}

// build returns the listed family of an instance, and its implicit form
// when the kind may be implicit.
func build(t *testing.T, kind string) (listed, implicit *set.Family) {
	t.Helper()
	spec, ok := construct.Lookup(kind)
	if !ok {
		t.Fatalf("no construction %s", kind)
	}
	a, err := construct.NewArgs(spec, instances[kind])
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(a)
	if err != nil {
		t.Fatal(err)
	}
	if sys.HK != nil {
		listed = sys.HK.Levels[0]
	} else {
		listed = sys.Family
	}
	if construct.CanImplicit(kind) && !listed.IsThreshold() {
		if implicit, err = construct.ImplicitFamily(spec, a); err != nil {
			t.Fatal(err)
		}
	}
	return listed, implicit
}

// probe is one exported function run on a family, its answer summarised
// as a string that does not depend on pointers.
type probe struct {
	name string
	run  func(ctx context.Context, f *set.Family) string
}

func ans(v any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(v)
}

func bySize(m map[int]*big.Int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d:%s ", k, m[k])
	}
	return b.String()
}

func ps(n int, p float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = p
	}
	return v
}

func polyStr(p *availability.Polynomial, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(p.A)
}

func allOwned(int) bool { return true }

var probes = []probe{
	// verify
	{"verify.Verify", func(ctx context.Context, f *set.Family) string {
		r, err := verify.Verify(ctx, set.System{Family: f}, verify.Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		fmt.Fprintf(&b, "valid=%v n=%d k=%d quorums=%s", r.Valid, r.N, r.K, r.Quorums)
		for _, c := range r.Checks {
			fmt.Fprintf(&b, " %s=%v", c.Name, c.OK)
		}
		return b.String()
	}},
	{"verify.MinIntersection", func(ctx context.Context, f *set.Family) string {
		size, _, _, _, err := verify.MinIntersection(ctx, f)
		return ans(size, err)
	}},
	{"verify.SmallTransversal", func(ctx context.Context, f *set.Family) string {
		tr, err := verify.SmallTransversal(ctx, f, 1)
		return ans(len(tr), err)
	}},
	{"verify.Byzantine", func(ctx context.Context, f *set.Family) string {
		cs, err := verify.Byzantine(ctx, f, 1, false)
		var oks []bool
		for _, c := range cs {
			oks = append(oks, c.OK)
		}
		return ans(oks, err)
	}},
	{"verify.MaxByzantine", func(ctx context.Context, f *set.Family) string {
		return ans(verify.MaxByzantine(ctx, f, true))
	}},
	{"verify.ByzantineMax", func(ctx context.Context, f *set.Family) string {
		m, d, err := verify.ByzantineMax(ctx, f)
		return ans([]int{m, d}, err)
	}},
	{"verify.FindDisjoint", func(ctx context.Context, f *set.Family) string {
		d, err := verify.FindDisjoint(ctx, f, 2)
		return ans(d != nil, err)
	}},
	// domination
	{"domination.Decide", func(ctx context.Context, f *set.Family) string {
		r, err := domination.Decide(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		if r.Witness != nil {
			if err := domination.CheckWitness(ctx, f, r.Witness); err != nil {
				return "witness fails: " + err.Error()
			}
		}
		return fmt.Sprint(r.Nondominated, r.Witness != nil)
	}},
	{"domination.CheckWitness", func(ctx context.Context, f *set.Family) string {
		return ans(domination.CheckWitness(ctx, f, set.Full(f.N)), nil)
	}},
	{"domination.MakeND", func(ctx context.Context, f *set.Family) string {
		// Only on a small coterie: MakeND's steps are meant for one, and
		// each is a search.
		if f.N > 7 {
			return "large"
		}
		if r, err := verify.Verify(ctx, set.System{Family: f}, verify.Options{}); err != nil || !r.Valid || f.K != 1 {
			return "not a coterie"
		}
		g, steps, err := domination.MakeND(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(g.String(), steps)
	}},
	{"domination.MinTransversal", func(ctx context.Context, f *set.Family) string {
		tr, err := domination.MinTransversal(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(tr.Len())
	}},
	{"domination.MinTransversalBounded", func(ctx context.Context, f *set.Family) string {
		tr, lower, err := domination.MinTransversalBounded(ctx, f, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(tr.Len(), lower)
	}},
	{"domination.CountTransversalPieces", func(ctx context.Context, f *set.Family) string {
		pc, err := domination.CountTransversalPieces(ctx, f, allOwned, nil, domination.Options{}, nil)
		if err != nil {
			return "error: " + err.Error()
		}
		return bySize(pc.BySize)
	}},
	{"domination.DecideSmallest", func(ctx context.Context, f *set.Family) string {
		r, err := domination.DecideSmallest(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		w := -1
		if r.Witness != nil {
			w = r.Witness.Len()
		}
		return fmt.Sprint(r.Nondominated, w, r.Smallest)
	}},
	{"domination.SmallestShard+MergeSmallest", func(ctx context.Context, f *set.Family) string {
		p, err := domination.SmallestShard(ctx, f, allOwned)
		if err != nil {
			return "error: " + err.Error()
		}
		q, err := domination.SmallestShardFrom(ctx, f, allOwned, nil, nil)
		if err != nil {
			return "error: " + err.Error()
		}
		best, lower := domination.SmallestProved([]*domination.SmallestPart{p})
		r, err := domination.MergeSmallest(ctx, f, []*domination.SmallestPart{p, q})
		if err != nil {
			return "error: " + err.Error()
		}
		w := -1
		if best != nil {
			w = best.Len()
		}
		return fmt.Sprint(w, lower, r.Nondominated)
	}},
	{"domination.ThresholdSupport", func(ctx context.Context, f *set.Family) string {
		nodes, w, ok := domination.ThresholdSupport(f)
		return fmt.Sprint(nodes, w, ok)
	}},
	{"domination.Transversals", func(ctx context.Context, f *set.Family) string {
		var all []string
		err := domination.Transversals(ctx, f, func(tr *set.Set) bool { all = append(all, tr.String()); return true })
		sort.Strings(all)
		n := 0
		for _, err := range domination.MinimalTransversals(ctx, f, domination.Options{}) {
			if err != nil {
				return "error: " + err.Error()
			}
			n++
		}
		err2 := domination.TransversalsOpt(ctx, f, domination.Options{}, func(*set.Set) bool { return true })
		return ans(fmt.Sprint(all, n, err2), err)
	}},
	{"domination.CountTransversals", func(ctx context.Context, f *set.Family) string {
		c, err := domination.CountTransversals(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		c2, err := domination.CountTransversalsProgress(ctx, f, nil)
		if err != nil {
			return "error: " + err.Error()
		}
		c3, err := domination.CountTransversalsOpt(ctx, f, domination.Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(c.Total, bySize(c.BySize), c2.Total, c3.Total)
	}},
	{"domination.DisjointPair", func(ctx context.Context, f *set.Family) string {
		pair, decided, err := domination.DisjointPair(ctx, f)
		return ans(fmt.Sprint(pair != nil, decided), err)
	}},
	// availability
	{"availability.Compute", func(ctx context.Context, f *set.Family) string {
		r, err := availability.Compute(ctx, f, availability.Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		pts, err := r.Evaluate(ctx, []float64{0.9}, availability.EvalOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(r.Exact, r.Poly.A, fmt.Sprintf("%.12f", pts[0].AV))
	}},
	{"availability.Brute", func(ctx context.Context, f *set.Family) string {
		return polyStr(availability.Brute(ctx, f))
	}},
	{"availability.BruteProbability", func(ctx context.Context, f *set.Family) string {
		v, err := availability.BruteProbability(ctx, f, ps(f.N, 0.9))
		return ans(fmt.Sprintf("%.12f", v), err)
	}},
	{"availability.BuildBDD", func(ctx context.Context, f *set.Family) string {
		b, err := availability.BuildBDD(ctx, f, availability.BDDOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%s %.12f", polyStr(b.Count(ctx)), b.Probability(ps(f.N, 0.9)))
	}},
	{"availability.Restrict", func(ctx context.Context, f *set.Family) string {
		g1, g0 := availability.Restrict(f, 0)
		if g1 == nil || g0 == nil {
			return "not listed"
		}
		return fmt.Sprint(g1.String(), g0.String())
	}},
	{"availability.Estimate", func(ctx context.Context, f *set.Family) string {
		n := availability.EstimateSamples(f, 0)
		e, err := availability.EstimateAV(ctx, f, ps(f.N, 0.9), 640, 1)
		if err != nil {
			return "error: " + err.Error()
		}
		e2, err := availability.EstimateShare(ctx, f, ps(f.N, 0.9), 640, 1, 1, 2)
		if err != nil {
			return "error: " + err.Error()
		}
		m := availability.MergeEstimates(e2)
		return fmt.Sprint(n, e.Hits, e.Samples, m.Samples)
	}},
	{"availability.Orders", func(ctx context.Context, f *set.Family) string {
		return fmt.Sprint(availability.ChooseOrder(f), len(availability.OrderCandidates(f)))
	}},
	{"availability.NewPartial", func(ctx context.Context, f *set.Family) string {
		p := availability.NewPartial(ctx, f)
		lo, hi := p.KnownRange()
		r := availability.PartialResult(p, "test")
		return fmt.Sprint(lo, hi, p.MinQuorum, p.Intersecting, r.Exact)
	}},
	{"availability.Split", func(ctx context.Context, f *set.Family) string {
		bits := availability.SplitBits(f.N, 2)
		ok := availability.Splittable(f, availability.MethodAuto)
		sp, err := availability.NewSplit(ctx, f, bits)
		if err != nil {
			return "error: " + err.Error()
		}
		sum := availability.NewPolynomial(f.N)
		for j := range 1 << bits {
			p, err := availability.ComputePiece(ctx, f, bits, j, availability.Options{})
			if err != nil {
				return "error: " + err.Error()
			}
			for i := range sum.A {
				sum.A[i].Add(sum.A[i], p.A[i])
			}
		}
		st, err := availability.RunPieces(ctx, f, bits, allOwned, nil, availability.Options{}, nil)
		if err != nil {
			return "error: " + err.Error()
		}
		r := availability.ExactResult(f, availability.MethodBDD, sum)
		return fmt.Sprint(ok, sp.Bits, sum.A, st.Sum.A, r.Exact)
	}},
	{"availability.Settle", func(ctx context.Context, f *set.Family) string {
		r, err := availability.Settle(ctx, f, "test")
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(r.N)
	}},
	// measure
	{"measure.LoadOf", func(ctx context.Context, f *set.Family) string {
		l, err := measure.LoadOf(ctx, f, measure.LoadOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(l.Exact, l.Method)
	}},
	{"measure.LoadBounds", func(ctx context.Context, f *set.Family) string {
		lo, hi, err := measure.LoadBounds(ctx, f)
		return ans(fmt.Sprint(lo, hi), err)
	}},
	{"measure.MessagesOf", func(ctx context.Context, f *set.Family) string {
		m := measure.MessagesOf(f)
		return fmt.Sprint(m.MaekawaLight, m.Ordered, m.RicartAgrawala, m.Err)
	}},
	{"measure.Resilience", func(ctx context.Context, f *set.Family) string {
		r, err := measure.ResilienceOf(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		if r.F < 0 {
			return fmt.Sprintf("resilience %d: a lie", r.F)
		}
		r2, err := measure.ResilienceBounded(ctx, f, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		r3, err := measure.ResilienceWithin(ctx, f, measure.ResilienceOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(r.F, r2.F, r3.F)
	}},
	{"set.Stats", func(ctx context.Context, f *set.Family) string {
		st := f.Stats()
		return fmt.Sprint(st.Quorums, st.MinSize, st.MaxSize, st.SizeSum, st.MinDegree, st.MaxDegree, st.Err)
	}},
}

// run calls p on f, turning a panic into an answer that fails the test.
func run(p probe, f *set.Family) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("PANIC: %v", r)
		}
	}()
	return p.run(context.Background(), f)
}

// TestEveryFunctionOnEveryKind runs every probe on the listed and the
// implicit form of every instance: no panic, and equal answers.
func TestEveryFunctionOnEveryKind(t *testing.T) {
	for _, s := range construct.Specs() {
		listed, implicit := build(t, s.Name)
		for _, p := range probes {
			got := run(p, listed)
			if strings.HasPrefix(got, "PANIC") || strings.Contains(got, "a lie") {
				t.Errorf("%s on %s: %s", p.name, s.Name, got)
			}
			if implicit == nil {
				continue
			}
			imp := run(p, implicit)
			if imp != got {
				t.Errorf("%s on %s: implicit %q, listed %q", p.name, s.Name, imp, got)
			}
		}
	}
}

// TestTooLargeToList runs every probe on implicit families with more
// quorums than the library lists: no panic, no negative resilience, and
// each answer either comes from the construction or is an error that
// wraps set.ErrTooMany.
func TestTooLargeToList(t *testing.T) {
	fams := []*set.Family{}
	for kind, params := range map[string]set.Params{
		"tree":     {"degree": 2, "height": 6},
		"hqc":      {"levels": "5,5,5,5"},
		"wall":     {"widths": "1,3,3,3,3,3,3,3,3,3,3,3,3"},
		"triangle": {"rows": 9},
	} {
		f, err := construct.Implicit(kind, params)
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := construct.Count(f); !ok || c.Cmp(big.NewInt(construct.ListLimit)) <= 0 {
			t.Fatalf("%s %v: %v quorums, want more than %d", kind, params, c, construct.ListLimit)
		}
		fams = append(fams, f)
	}
	for _, f := range fams {
		for _, p := range probes {
			got := run(p, f)
			if strings.HasPrefix(got, "PANIC") || strings.Contains(got, "a lie") {
				t.Errorf("%s on %s: %s", p.name, f, got)
			}
		}
		// The construction answers these.
		r, err := verify.Verify(context.Background(), set.System{Family: f}, verify.Options{})
		if err != nil || !r.Valid || r.Check("construction", 0) == nil {
			t.Errorf("verify on %s: %v, %v; want valid by construction", f, r, err)
		}
		if _, err := measure.ResilienceOf(context.Background(), f); !errors.Is(err, set.ErrTooMany) {
			t.Errorf("resilience of %s: %v, want an error wrapping set.ErrTooMany", f, err)
		}
		st := f.Stats()
		if !errors.Is(st.Err, set.ErrTooMany) || st.Quorums.Sign() <= 0 || st.MinSize < 1 {
			t.Errorf("stats of %s: %+v, want the construction's count and sizes and ErrTooMany", f, st)
		}
	}
	// A theorem decides the walls, the triangle and odd majority voting.
	for _, f := range fams[2:] {
		if f.Kind != "wall" && f.Kind != "triangle" {
			continue
		}
		r, err := domination.Decide(context.Background(), f)
		if err != nil || !r.Nondominated || r.Theorem == "" {
			t.Errorf("decide %s: %+v, %v; want nondominated by a theorem", f, r, err)
		}
	}
}
