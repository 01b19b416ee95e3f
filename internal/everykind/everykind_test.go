package everykind_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
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
		// One shard owns every part: p and q are each the whole answer.
		r, err := domination.MergeSmallest(ctx, f, []*domination.SmallestPart{p})
		if err != nil {
			return "error: " + err.Error()
		}
		r2, err := domination.MergeSmallest(ctx, f, []*domination.SmallestPart{q})
		if err != nil {
			return "error: " + err.Error()
		}
		if r2.Nondominated != r.Nondominated || (r.Witness == nil) != (r2.Witness == nil) || r.Witness != nil && r.Witness.Len() != r2.Witness.Len() {
			return lie("SmallestShard merges into %+v, SmallestShardFrom into %+v", r, r2)
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
		r, err := computed(ctx, f)
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
		// What it proves holds the exact availability.
		if c, err := computed(ctx, f); err == nil && c.Exact {
			for _, x := range []float64{0.5, 0.9} {
				if l, h := p.Bounds(x); l > c.Poly.At(x)+1e-12 || h < c.Poly.At(x)-1e-12 {
					return lie("proved bounds [%v, %v] at %v, availability %v", l, h, x, c.Poly.At(x))
				}
			}
		}
		if !p.Equal(p) {
			return lie("a partial not equal to itself")
		}
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

// thresholdForm names the probes whose answer on a threshold family may
// differ from the answer on the list of its quorums, and why: each
// documents it. On these only the rest is checked: no panic, no lie.
var thresholdForm = map[string]string{
	"verify.FindDisjoint":                         "refuses a threshold family (decided by counting)",
	"domination.CheckWitness":                     "words the reason by the threshold",
	"domination.MakeND":                           "refuses a threshold family (to be listed first)",
	"domination.ThresholdSupport":                 "is about an explicit family",
	"domination.DisjointPair":                     "is about an explicit family (not decided on a threshold)",
	"availability.BuildBDD":                       "refuses a threshold family (the closed form counts it)",
	"availability.Split":                          "refuses a threshold family (the closed form counts it)",
	"availability.ComputeResumable":               "is for a family Splittable accepts, which a threshold family is not",
	"availability.Compute by method":              "refuses the BDD on a threshold family (the closed form counts it)",
	"availability.ComputeShare+MergeShares":       "refuses the estimate asked for on a threshold family, as Compute does",
	"availability.SplittableContext":              "splits no threshold family (the closed form counts it)",
	"measure.LoadOf":                              "names the method: threshold, or the LP's on the list",
	"availability.Split.Piece+ID, BDD.Size+Order": "refuses a threshold family (the closed form counts it)",
}

// errorOK names the probes that may answer an error on a small instance,
// and why: each documents it.
var errorOK = map[string]string{
	"availability.Brute":            "brute force stops past 30 nodes (boostfpp has 35)",
	"availability.BruteProbability": "brute force stops past 30 nodes (boostfpp has 35)",
}

// tempRoot is the folder of the test that runs the probes (t.TempDir),
// for the probes that keep a file.
var tempRoot string

// allProbes are the probes of every exported function.
func allProbes() []probe { return append(slices.Clone(probes), moreProbes...) }

// TestEveryFunctionOnEveryKind runs every probe on the listed and the
// implicit form of every instance: no panic, and equal answers. A kind
// whose listed family is a threshold family is also run on the list of
// its quorums, which must answer as the threshold form does.
func TestEveryFunctionOnEveryKind(t *testing.T) {
	tempRoot = t.TempDir()
	for _, s := range construct.Specs() {
		listed, implicit := build(t, s.Name)
		other, form := implicit, "implicit"
		if listed.IsThreshold() {
			g, err := listed.Enumerate(construct.ListLimit)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			other, form = g, "list of the threshold"
		}
		for _, p := range allProbes() {
			got := run(p, listed)
			if strings.HasPrefix(got, "PANIC") || strings.Contains(got, "a lie") {
				t.Errorf("%s on %s: %s", p.name, s.Name, got)
			}
			_, documented := errorOK[p.name]
			if _, ok := thresholdForm[p.name]; ok && listed.IsThreshold() {
				documented = true
			}
			if strings.HasPrefix(got, "error:") && !documented {
				t.Errorf("%s on %s: %s", p.name, s.Name, got)
			}
			if other == nil {
				continue
			}
			if _, ok := thresholdForm[p.name]; ok && listed.IsThreshold() {
				// The list is an ordinary one: no error of its own.
				if imp := run(p, other); strings.HasPrefix(imp, "PANIC") || strings.Contains(imp, "a lie") || strings.HasPrefix(imp, "error:") {
					t.Errorf("%s on %s: %s: %s", p.name, s.Name, form, imp)
				}
				continue
			}
			imp := run(p, other)
			if imp != got {
				t.Errorf("%s on %s: %s %q, listed %q", p.name, s.Name, form, imp, got)
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
	tempRoot = t.TempDir()
	more := map[string]bool{}
	for _, p := range moreProbes {
		more[p.name] = true
	}
	for _, f := range fams {
		for _, p := range allProbes() {
			got := run(p, f)
			if strings.HasPrefix(got, "PANIC") || strings.Contains(got, "a lie") {
				t.Errorf("%s on %s: %s", p.name, f, got)
			}
			// The functions probed above refuse only for the count.
			if more[p.name] && strings.HasPrefix(got, "error:") && !strings.Contains(got, set.ErrTooMany.Error()) {
				t.Errorf("%s on %s: %s; want an error wrapping set.ErrTooMany", p.name, f, got)
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

// The probes below cover the exported functions that answer from what a
// construction knows without its quorums, and those that need more input
// than a family. Each returns an answer that must not depend on the form
// of the family (listed, implicit or threshold); an answer that
// contradicts an independent computation on the same family contains
// "a lie", which fails the test even where there is no other form.

// lie formats a contradiction.
func lie(format string, args ...any) string { return "a lie: " + fmt.Sprintf(format, args...) }

// rat formats an exact rational for an answer.
func rat(x *big.Rat) string {
	if x == nil {
		return "<nil>"
	}
	return x.RatString()
}

// listedOf returns f's quorums as a list (an implicit family listed by its
// construction, a threshold family enumerated), for the oracles below.
func listedOf(ctx context.Context, f *set.Family) (*set.Family, error) {
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, err
	}
	if g.IsThreshold() {
		return g.Enumerate(construct.ListLimit)
	}
	return g, nil
}

// masks returns the quorums of the listed family g as bit masks (g.N ≤ 62).
func masks(g *set.Family) []uint64 {
	var out []uint64
	for _, q := range g.All() {
		var m uint64
		for v := range q.All() {
			m |= 1 << v
		}
		out = append(out, m)
	}
	return out
}

// oracleN is the largest n for which the oracles below go over all 2^n
// live sets.
const oracleN = 12

// The failure model of the domain probes: every node is up with
// probability pNode on its own, in a rack of 2 nodes (the last rack of an
// odd n has one) that is up with probability pRack. Racks of two are the
// smallest domains that correlate failures; one level keeps the oracle
// (over the 2^n live sets, each rack's factor in closed form) simple.
var (
	pNode = big.NewRat(9, 10)
	pRack = big.NewRat(99, 100)
)

// racks returns the domain tree of racks of 2 nodes over n nodes.
func racks(n int) *domain.Tree {
	t := domain.New(n)
	for v := range n {
		if err := t.Place(v, fmt.Sprintf("rack%d", v/2+1)); err != nil {
			panic(err)
		}
	}
	for d := range t.Len() {
		if err := t.SetP(d, pRack); err != nil {
			panic(err)
		}
	}
	return t
}

// domainOracle returns exactly the probability that a quorum of qs (bit
// masks over n nodes) is up under the rack model of [racks], summing over
// the 2^n sets L of nodes that count as up: a rack with a node in L is up
// (pRack) with its nodes in L up and the others down; a rack with none is
// down, or up with all its nodes down.
func domainOracle(qs []uint64, n int) *big.Rat {
	one := big.NewRat(1, 1)
	qNode := new(big.Rat).Sub(one, pNode)
	sum := new(big.Rat)
	for live := uint64(0); live < 1<<n; live++ {
		has := false
		for _, q := range qs {
			if q&live == q {
				has = true
				break
			}
		}
		if !has {
			continue
		}
		pr := big.NewRat(1, 1)
		for r := 0; 2*r < n; r++ {
			in := new(big.Rat).Set(pRack)
			any := false
			for v := 2 * r; v < min(2*r+2, n); v++ {
				if live&(1<<v) != 0 {
					in.Mul(in, pNode)
					any = true
				} else {
					in.Mul(in, qNode)
				}
			}
			if !any {
				in.Add(in, new(big.Rat).Sub(one, pRack))
			}
			pr.Mul(pr, in)
		}
		sum.Add(sum, pr)
	}
	return sum
}

// writesOf is a second family over the same n nodes for the probes of
// two families: every n−1 nodes, a threshold family with only n quorums
// to enumerate (a majority of the 35 nodes of boostfpp would have more
// than DomainBoth lists).
func writesOf(n int) *set.Family { return set.NewThreshold(n, n-1) }

// unionMasks is the family of the quorums of both lists.
func unionMasks(a, b []uint64) []uint64 { return append(append([]uint64{}, a...), b...) }

// computedCache holds availability.Compute's result of each family the
// probes below compare with, computed once per family (the listed and
// the implicit form each have their own).
var computedCache = map[*set.Family]*availability.Result{}

func computed(ctx context.Context, f *set.Family) (*availability.Result, error) {
	if r, ok := computedCache[f]; ok {
		return r, nil
	}
	r, err := availability.Compute(ctx, f, availability.Options{})
	if err == nil {
		computedCache[f] = r
	}
	return r, err
}

var moreProbes = []probe{
	// verify
	{"verify.ByConstruction+ConstructionCheck", func(ctx context.Context, f *set.Family) string {
		// Only a construction with a proof answers; what it answers must
		// be what the quorums say. The answer is that of the quorums.
		full, err := verify.Verify(ctx, set.System{Family: f}, verify.Options{ListLimit: construct.ListLimit})
		if err != nil {
			return "error: " + err.Error()
		}
		r, err := verify.ByConstruction(f, verify.Options{})
		c, ok := verify.ConstructionCheckOf(f)
		switch {
		case err != nil && ok:
			return lie("ByConstruction: %v, ConstructionCheckOf has a proof", err)
		case err == nil && !ok:
			return lie("ByConstruction answers, ConstructionCheckOf has no proof")
		case err == nil:
			if r.Valid != full.Valid || r.N != f.N || r.K != f.K {
				return lie("by construction valid=%v n=%d k=%d, on the quorums valid=%v", r.Valid, r.N, r.K, full.Valid)
			}
			if r.Quorums != nil && full.Quorums != nil && r.Quorums.Cmp(full.Quorums) != 0 {
				return lie("by construction %s quorums, listed %s", r.Quorums, full.Quorums)
			}
			if cc := r.Check("construction", 0); cc == nil || *cc != c {
				return lie("the report's construction check %v is not ConstructionCheckOf's %v", cc, c)
			}
			sys, terr := construct.Typed(f)
			p, isProver := sys.(quorum.Prover)
			if terr != nil || !isProver {
				return lie("ConstructionCheckOf has a proof, Typed has none (%v)", terr)
			}
			if d := verify.ConstructionCheck(f.Kind, p); d != c || !d.OK || !d.Info || !strings.Contains(d.Detail, p.IntersectionProof()) {
				return lie("ConstructionCheck %+v, ConstructionCheckOf %+v", d, c)
			}
		}
		return fmt.Sprint("valid=", full.Valid, " quorums=", full.Quorums)
	}},
	// domination
	{"domination.CheckArbiter", func(ctx context.Context, f *set.Family) string {
		na, err := domination.CheckArbiter(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		g, err := listedOf(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// The oracle: k+1 quorums that share no node, for k ≤ 2.
		qs := masks(g)
		disjoint := false
		if f.K <= 2 && len(qs) <= 1000 {
			full := uint64(1)<<f.N - 1
			for i := range qs {
				for j := i; j < len(qs); j++ {
					if f.K == 1 {
						disjoint = disjoint || qs[i]&qs[j] == 0
						continue
					}
					for l := j; l < len(qs) && !disjoint; l++ {
						disjoint = qs[i]&qs[j]&qs[l]&full == 0
					}
				}
			}
			if disjoint != (na != nil) {
				return lie("CheckArbiter %+v, but k+1 quorums sharing no node: %v", na, disjoint)
			}
		}
		if na == nil {
			return "arbiter"
		}
		if na.Quorums != nil {
			common := ^uint64(0)
			for _, i := range na.Quorums {
				common &= qs[i]
			}
			if len(na.Quorums) != f.K+1 || common != 0 {
				return lie("quorums %v of %s share a node", na.Quorums, g)
			}
		}
		// Listed says which form it came from; the rest is the answer.
		return fmt.Sprint("not an arbiter: threshold=", na.Threshold, " w=", na.W, " nodes=", na.Nodes, " disjoint=", na.Quorums != nil)
	}},
	{"domination.ByTheorem", func(ctx context.Context, f *set.Family) string {
		d, err := domination.Decide(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		if r, ok := domination.ByTheorem(f); ok {
			if r.Nondominated != d.Nondominated || r.K != f.K || r.Theorem == "" {
				return lie("by theorem %+v, decided %v", r, d.Nondominated)
			}
		}
		return fmt.Sprint("nondominated=", d.Nondominated)
	}},
	{"domination.ExplainProof", func(ctx context.Context, f *set.Family) string {
		r, err := domination.DecideSmallest(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		out := fmt.Sprint("not proved smallest: ", r.Nondominated)
		if r.Smallest {
			out = fmt.Sprint(r.Proof, ": ", domination.ExplainProof(r.Proof, f, r.Witness.Len(), r.PlaneOrder))
		}
		// Every proof, worded for this family: the words may depend on
		// its quorums (the nodes they use), never on its form.
		for _, pr := range []domination.Proof{domination.ProofClosedForm, domination.ProofSolver, domination.ProofExhaustive,
			domination.ProofBruen, domination.ProofBruenSolver, domination.ProofBruenSymmetry} {
			out += "; " + domination.ExplainProof(pr, f, 4, 2)
		}
		return out
	}},
	{"domination.CountTransversalPiecesPaced", func(ctx context.Context, f *set.Family) string {
		want, err := domination.CountTransversals(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		var last *domination.PieceCount
		saves := 0
		save := func(pc *domination.PieceCount) error {
			saves++
			last = &domination.PieceCount{Pieces: pc.Pieces, Done: slices.Clone(pc.Done), BySize: maps.Clone(pc.BySize)}
			return nil
		}
		// Paced at an hour: the count saves at most once on the way, and
		// once more at the end with the final state.
		pc, err := domination.CountTransversalPiecesPaced(ctx, f, allOwned, nil, domination.Options{}, save, time.Hour)
		if err != nil {
			return "error: " + err.Error()
		}
		if err := pc.Check(f.N); err != nil {
			return lie("the count fails its own check: %v", err)
		}
		c := pc.Count()
		if c.Total.Cmp(want.Total) != 0 || bySize(c.BySize) != bySize(want.BySize) || c.Smallest != want.Smallest {
			return lie("paced count %s %s, CountTransversals %s %s", c.Total, bySize(c.BySize), want.Total, bySize(want.BySize))
		}
		if saves == 0 || saves > 2 || last == nil || len(last.Done) != len(pc.Done) || bySize(last.BySize) != bySize(pc.BySize) {
			return lie("%d saves at an hour's pace, the last %+v, the final %+v", saves, last, pc)
		}
		sh := pc.Share()
		m, err := domination.MergeShardCounts([]*domination.ShardCount{sh})
		if err != nil || m.Total.Cmp(want.Total) != 0 {
			return lie("the share %+v merges into %v, %v", sh, m, err)
		}
		// Without a save, it is CountTransversalPieces.
		pc2, err := domination.CountTransversalPiecesPaced(ctx, f, allOwned, nil, domination.Options{}, nil, 0)
		if err != nil || bySize(pc2.BySize) != bySize(pc.BySize) {
			return lie("unsaved paced count %v, %v", pc2, err)
		}
		return fmt.Sprint(c.Total, " ", bySize(c.BySize))
	}},
	// availability
	{"availability.DomainAvailability", func(ctx context.Context, f *set.Family) string {
		// Without domains, the exact polynomial at p.
		av0, _, err := availability.DomainAvailability(ctx, f, availability.UniformModel(f.N, pNode, nil), 0)
		if err != nil {
			return "error: " + err.Error()
		}
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		if r.Exact && r.Poly.AtRat(pNode).Cmp(av0) != 0 {
			return lie("no domains: %s, the polynomial at %s: %s", rat(av0), rat(pNode), rat(r.Poly.AtRat(pNode)))
		}
		av, _, err := availability.DomainAvailability(ctx, f, availability.UniformModel(f.N, pNode, racks(f.N)), 0)
		if err != nil {
			return "error: " + err.Error()
		}
		if f.N <= oracleN {
			g, err := listedOf(ctx, f)
			if err != nil {
				return "error: " + err.Error()
			}
			if want := domainOracle(masks(g), f.N); want.Cmp(av) != 0 {
				return lie("in racks of 2: %s, over all live sets: %s", rat(av), rat(want))
			}
		}
		return rat(av0) + " " + rat(av)
	}},
	{"availability.DomainBoth", func(ctx context.Context, f *set.Family) string {
		m := availability.UniformModel(f.N, pNode, racks(f.N))
		// Reads and writes both f: the three are one.
		pr, pw, both, err := availability.DomainBoth(ctx, f, f, m, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		if pr.Cmp(pw) != 0 || pr.Cmp(both) != 0 {
			return lie("reads and writes of one family: %s, %s, both %s", rat(pr), rat(pw), rat(both))
		}
		// Reads f, writes every n−1 nodes: both is P(R) + P(W) − P(R or W).
		maj := writesOf(f.N)
		pr2, pw2, both2, err := availability.DomainBoth(ctx, f, maj, m, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		if pr2.Cmp(pr) != 0 {
			return lie("the reads' availability %s beside the writes, %s alone", rat(pr2), rat(pr))
		}
		if f.N <= oracleN {
			g, err := listedOf(ctx, f)
			if err != nil {
				return "error: " + err.Error()
			}
			gm, _ := maj.Enumerate(construct.ListLimit)
			qr, qw := masks(g), masks(gm)
			either := domainOracle(unionMasks(qr, qw), f.N)
			want := new(big.Rat).Add(domainOracle(qr, f.N), domainOracle(qw, f.N))
			want.Sub(want, either)
			if want.Cmp(both2) != 0 || domainOracle(qw, f.N).Cmp(pw2) != 0 {
				return lie("both %s, writes %s; over all live sets both %s", rat(both2), rat(pw2), rat(want))
			}
		}
		return rat(pr) + " " + rat(pw2) + " " + rat(both2)
	}},
	{"availability.Lift", func(ctx context.Context, f *set.Family) string {
		t := racks(f.N)
		vars := make([]int, t.Len())
		for d := range vars {
			vars[d] = d
		}
		lf, order := availability.Lift(f, t, vars)
		if lf == nil {
			return "not lifted"
		}
		g, err := listedOf(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// The oracle: each quorum with the racks of its nodes.
		want := set.NewFamily(f.N + len(vars))
		for _, q := range g.All() {
			lq := set.New(want.N)
			for v := range q.All() {
				lq.Add(v)
				lq.Add(f.N + v/2)
			}
			want.Add(lq, 0)
		}
		got := lf.Clone()
		got.Canonical()
		want.Canonical()
		if !set.SameQuorums(got, want) {
			return lie("lifted %s, want %s", got, want)
		}
		return fmt.Sprint(got, " ", order)
	}},
	{"availability.LiftedAvailability+NewLifted", func(ctx context.Context, f *set.Family) string {
		t := racks(f.N)
		m := availability.UniformModel(f.N, pNode, t)
		av, method, err := availability.DomainAvailability(ctx, f, m, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		lav, err := availability.LiftedAvailability(ctx, f, m, 0)
		if err != nil {
			// Documented: a threshold family is refused (VoteAvailability counts it).
			// Both models through DomainAvailability, as for a list below.
			if construct.ThresholdForm(f) != nil && method == availability.MethodDomainTree {
				at1, _, err := availability.DomainAvailability(ctx, f, availability.UniformModel(f.N, big.NewRat(1, 1), t), 0)
				if err != nil {
					return "error: " + err.Error()
				}
				return rat(av) + " " + rat(at1)
			}
			return "error: " + err.Error()
		}
		if lav.Cmp(av) != 0 {
			return lie("lifted %s, DomainAvailability %s", rat(lav), rat(av))
		}
		vars := make([]int, t.Len())
		for d := range vars {
			vars[d] = d
		}
		l, err := availability.NewLifted(ctx, f, t, vars, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		if at, err := l.At(ctx, m); err != nil || at.Cmp(av) != 0 {
			return lie("Lifted.At %v, %v; LiftedAvailability %s", at, err, rat(av))
		}
		// One BDD, another model over the same tree: no node fails on its
		// own, so it is the availability of the quorums under racks alone.
		m1 := availability.UniformModel(f.N, big.NewRat(1, 1), t)
		at1, err := l.At(ctx, m1)
		if err != nil {
			return "error: " + err.Error()
		}
		want1, _, err := availability.DomainAvailability(ctx, f, m1, 0)
		if err != nil || want1.Cmp(at1) != 0 {
			return lie("Lifted.At another model %s, DomainAvailability %v, %v", rat(at1), want1, err)
		}
		return rat(av) + " " + rat(at1)
	}},
	{"availability.ComputeShare+MergeShares", func(ctx context.Context, f *set.Family) string {
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// Two shards: the smallest split that has a share of each kind.
		var shares []*availability.Share
		for i := 1; i <= 2; i++ {
			sh, err := availability.ComputeShare(ctx, f, shard.Spec{Index: i, Count: 2}, availability.ShareOptions{Points: []float64{0.9}})
			if err != nil {
				return "error: " + err.Error()
			}
			shares = append(shares, sh)
		}
		m, pts, err := availability.MergeShares(ctx, shares, []float64{0.9})
		if err != nil {
			return "error: " + err.Error()
		}
		if m.Exact != r.Exact || r.Exact && !m.Poly.Equal(r.Poly) {
			return lie("merged shares %v, Compute %v", m.Poly, r.Poly)
		}
		want, err := r.Evaluate(ctx, []float64{0.9}, availability.EvalOptions{})
		if err != nil || len(pts) != 1 || pts[0].AV != want[0].AV {
			return lie("merged at 0.9: %v; Compute: %v, %v", pts, want, err)
		}
		// The estimate, asked for, split into the two shares of its
		// samples (few: the hits must only be the same on every form,
		// and within the proved bounds). Up to 8 nodes: each share
		// works out what is proved (NewPartial), which takes most of a
		// second on hqc and boostfpp, and the code of the shares is the
		// same for every family.
		if f.N > 8 {
			return fmt.Sprint(m.Exact, " ", m.Poly)
		}
		var est []*availability.Share
		for i := 1; i <= 2; i++ {
			sh, err := availability.ComputeShare(ctx, f, shard.Spec{Index: i, Count: 2}, availability.ShareOptions{
				Options: availability.Options{Method: availability.MethodEstimate}, Points: []float64{0.9}, Samples: 400, Seed: 1})
			if err != nil {
				return "error: " + err.Error()
			}
			est = append(est, sh)
		}
		me, epts, err := availability.MergeShares(ctx, est, []float64{0.9})
		if err != nil {
			return "error: " + err.Error()
		}
		if !me.Exact && (epts[0].Estimate == nil || epts[0].Estimate.Samples < 400) {
			return lie("merged estimate %+v of at least 400 samples", epts[0].Estimate)
		}
		if epts[0].Lo > want[0].AV+1e-12 || epts[0].Hi < want[0].AV-1e-12 && epts[0].Hi != 0 {
			return lie("the estimate's proved bounds [%v, %v], availability %v", epts[0].Lo, epts[0].Hi, want[0].AV)
		}
		return fmt.Sprint(m.Exact, " ", m.Poly, " estimate ", est[0].Kind, " ", me.Exact, fmt.Sprintf(" %.6f", epts[0].AV))
	}},
	{"availability.ComputeResumable", func(ctx context.Context, f *set.Family) string {
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// The checkpoint goes through its file, as the command keeps it:
		// saved after the first piece, then the run is interrupted, then
		// resumed from what the file holds.
		dir, err := os.MkdirTemp(tempRoot, "ck")
		if err != nil {
			return "error: " + err.Error()
		}
		path := filepath.Join(dir, "checkpoint.json")
		const hash = "everykind"
		sp := shard.Spec{Index: 1, Count: 1}
		ictx, cancel := context.WithCancel(ctx)
		defer cancel()
		saves := 0
		o := availability.ShareOptions{Checkpoint: &availability.Checkpoint{}, Save: func(ck *availability.Checkpoint) error {
			saves++
			b, err := json.Marshal(partfile.AvailabilityCheckpoint(hash, sp, ck))
			if err != nil {
				return err
			}
			cancel()
			return os.WriteFile(path, b, 0o600)
		}}
		if _, err := availability.ComputeResumable(ictx, f, o); err == nil && saves > 0 {
			return lie("a run interrupted after its first save finished")
		}
		ck := &availability.Checkpoint{}
		if saves > 0 {
			b, err := os.ReadFile(path)
			if err != nil {
				return "error: " + err.Error()
			}
			if ck, err = partfile.ReadAvailabilityCheckpoint(b, hash, sp); err != nil {
				return "error: " + err.Error()
			}
		}
		o.Checkpoint, o.Save = ck, nil
		res, err := availability.ComputeResumable(ctx, f, o)
		if err != nil {
			return "error: " + err.Error()
		}
		if res.Exact != r.Exact || r.Exact && !res.Poly.Equal(r.Poly) {
			return lie("resumed %v, Compute %v", res.Poly, r.Poly)
		}
		return fmt.Sprint(res.Exact, " ", res.Poly, " ", saves > 0)
	}},
	{"availability.SplittableContext", func(ctx context.Context, f *set.Family) string {
		var out []bool
		for _, m := range []availability.Method{availability.MethodAuto, availability.MethodBDD, availability.MethodEstimate} {
			ok := availability.SplittableContext(ctx, f, m)
			if ok != availability.Splittable(f, m) {
				return lie("SplittableContext and Splittable differ on %s", m)
			}
			out = append(out, ok)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if availability.SplittableContext(cctx, f, availability.MethodBDD) {
			return lie("splittable once the context is done")
		}
		return fmt.Sprint(out)
	}},
	{"availability.Result methods", func(ctx context.Context, f *set.Family) string {
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		if r.Family() == nil || r.Family().N != f.N {
			return lie("Result.Family %v", r.Family())
		}
		p := ps(f.N, 0.9)
		av, exact, err := r.Probability(ctx, p, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		want, err := availability.BruteProbability(ctx, f, p)
		if err == nil && exact && math.Abs(av-want) > 1e-12 {
			return lie("Result.Probability %v, BruteProbability %v", av, want)
		}
		pts, err := r.Evaluate(ctx, []float64{0.9}, availability.EvalOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		u := r.Unavailability(pts[0], true)
		// Node 1 at 0.5, the others at 0.9: per node, through the
		// quorums, against brute force.
		ov, err := r.Evaluate(ctx, []float64{0.9}, availability.EvalOptions{Override: map[int]float64{0: 0.5}})
		if err != nil {
			return "error: " + err.Error()
		}
		p[0] = 0.5
		if b, err := availability.BruteProbability(ctx, f, p); err == nil && ov[0].Exact && math.Abs(b-ov[0].AV) > 1e-12 {
			return lie("node 1 at 0.5: %v, brute force %v", ov[0].AV, b)
		}
		if r.Exact && exact && math.Abs(av-r.Poly.At(0.9)) > 1e-12 {
			return lie("Result.Probability %v, its polynomial at 0.9 %v", av, r.Poly.At(0.9))
		}
		return fmt.Sprintf("%.12f %v %.6g; node 1 at 0.5: %.12f %v", av, exact, u, ov[0].AV, ov[0].Exact)
	}},
	{"availability.Compute by method", func(ctx context.Context, f *set.Family) string {
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// Each exact method asked for, on the quorums: the BDD's and
		// brute force's polynomials are the one Compute chooses. (The
		// estimate asked for is the ComputeShare probe's.)
		out := ""
		for _, m := range []availability.Method{availability.MethodBDD, availability.MethodBrute} {
			if m == availability.MethodBrute && f.N > 20 {
				continue
			}
			rm, err := availability.Compute(ctx, f, availability.Options{Method: m})
			if err != nil {
				return "error: " + err.Error()
			}
			if rm.Exact && r.Exact && !rm.Poly.Equal(r.Poly) {
				return lie("%s: %v, auto: %v", m, rm.Poly, r.Poly)
			}
			if !rm.Exact {
				if rm.Partial == nil {
					return lie("%s: not exact, nothing proved", m)
				}
				if lo, hi := rm.Partial.Bounds(0.9); r.Exact && (lo > r.Poly.At(0.9)+1e-12 || hi < r.Poly.At(0.9)-1e-12) {
					return lie("%s: bounds [%v, %v], availability %v", m, lo, hi, r.Poly.At(0.9))
				}
			}
			out += fmt.Sprint(m, "=", rm.Exact, " ")
		}
		return out
	}},
	{"availability.Split.Piece+ID, BDD.Size+Order", func(ctx context.Context, f *set.Family) string {
		r, err := computed(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		// Two pieces: the smallest split.
		sp, err := availability.NewSplit(ctx, f, 1)
		if err != nil {
			return "error: " + err.Error()
		}
		sum := availability.NewPolynomial(f.N)
		for j := range 2 {
			pc, err := sp.Piece(ctx, f, j, availability.Options{})
			if err != nil {
				return "error: " + err.Error()
			}
			sum.Add(pc)
		}
		if r.Exact && !sum.Equal(r.Poly) {
			return lie("Split.Piece sums to %v, Compute %v", sum, r.Poly)
		}
		b, err := availability.BuildBDD(ctx, f, availability.BDDOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		if o := b.Order(); len(o) != f.N || b.Size() < 2 {
			return lie("a BDD of %d nodes in order %v", b.Size(), o)
		}
		return fmt.Sprint(sp.ID(), " ", b.Size())
	}},
	// measure
	{"measure.ClosedFormLoad+Capacity", func(ctx context.Context, f *set.Family) string {
		// The load the LP finds on the quorums is the answer; a closed
		// form must give the same.
		g, err := listedOf(ctx, f)
		if err != nil {
			return "error: " + err.Error()
		}
		full, err := measure.LoadOf(ctx, g, measure.LoadOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		if l, ok := measure.ClosedFormLoad(f); ok && (l.Exact == nil || l.Exact.Cmp(full.Exact) != 0) {
			return lie("closed form %s, on the quorums %s", rat(l.Exact), rat(full.Exact))
		}
		c, cx := full.Capacity()
		if cx == nil || new(big.Rat).Mul(cx, full.Exact).Cmp(big.NewRat(1, 1)) != 0 {
			return lie("capacity %v of load %s", cx, rat(full.Exact))
		}
		return fmt.Sprintf("%s %.6f", rat(full.Exact), c)
	}},
}

// TestConstructionAnswers checks that the functions that answer from a
// construction without its quorums do answer where they say they do (so
// that the probes above compare something): on the implicit form of every
// instance that may be implicit, and on the threshold form; and that they
// refuse a list, as documented.
func TestConstructionAnswers(t *testing.T) {
	for _, s := range construct.Specs() {
		listed, implicit := build(t, s.Name)
		switch {
		case implicit != nil:
			// Every construction that may be implicit has a proof.
			r, err := verify.ByConstruction(implicit, verify.Options{})
			if err != nil || !r.Valid {
				t.Errorf("%s: ByConstruction %v, %v", s.Name, r, err)
			}
			if _, ok := verify.ConstructionCheckOf(implicit); !ok {
				t.Errorf("%s: ConstructionCheckOf: no proof", s.Name)
			}
			if _, err := verify.ByConstruction(listed, verify.Options{}); err == nil {
				t.Errorf("%s: ByConstruction answers on a list", s.Name)
			}
			if _, ok := verify.ConstructionCheckOf(listed); ok {
				t.Errorf("%s: ConstructionCheckOf has a proof of a list", s.Name)
			}
			// Closed forms of the load: the tree and the walls (the
			// triangle is a wall).
			l, ok := measure.ClosedFormLoad(implicit)
			if want := s.Name == "tree" || s.Name == "wall" || s.Name == "triangle"; ok != want {
				t.Errorf("%s: ClosedFormLoad %v, %v; want one: %v", s.Name, l, ok, want)
			}
			// The walls are nondominated by a theorem.
			r2, ok := domination.ByTheorem(implicit)
			if (s.Name == "wall" || s.Name == "triangle") && (!ok || !r2.Nondominated) {
				t.Errorf("%s: ByTheorem %+v, %v", s.Name, r2, ok)
			}
		case listed.IsThreshold():
			l, ok := measure.ClosedFormLoad(listed)
			if want := big.NewRat(int64(listed.Threshold), int64(listed.N)); !ok || l.Exact.Cmp(want) != 0 {
				t.Errorf("%s: ClosedFormLoad %v, %v; want %s", s.Name, l, ok, want)
			}
		}
		if _, ok := measure.ClosedFormLoad(set.NewFamily(listed.N)); ok {
			t.Errorf("ClosedFormLoad of an empty list: ok")
		}
	}
}
