package verify

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

func hk(a *set.HK) set.System { return set.System{HK: a} }

func TestCriticalPatternsPaperExample(t *testing.T) {
	// Manabe and Tajima, after Definition 4: for k = 4, {1,1,1,2} is
	// critical and {2,2,3} is conflicting but not critical ({2,3} already
	// conflicts).
	if !IsCritical([]int{1, 1, 1, 2}, 4) || IsCritical([]int{2, 2, 3}, 4) || !IsCritical([]int{2, 3}, 4) {
		t.Error("IsCritical disagrees with the paper's example")
	}
	var got [][]int
	for r := range CriticalPatterns(4) {
		got = append(got, slices.Clone(r))
	}
	want := [][]int{{1, 1, 1, 1, 1}, {1, 1, 1, 2}, {1, 1, 3}, {1, 2, 2}, {1, 4}, {2, 2, 2}, {2, 3}, {2, 4}, {3, 3}, {3, 4}, {4, 4}}
	if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
		t.Errorf("CriticalPatterns(4) = %v, want %v", got, want)
	}
	if slices.ContainsFunc(got, func(r []int) bool { return slices.Equal(r, []int{2, 2, 3}) }) {
		t.Error("{2,2,3} listed as critical")
	}
}

// allBags yields every bag (nondecreasing sequence) of 1..k with at most
// maxLen elements.
func allBags(k, maxLen int, yield func([]int)) {
	var rec func(bag []int, lo int)
	rec = func(bag []int, lo int) {
		yield(bag)
		if len(bag) == maxLen {
			return
		}
		for h := lo; h <= k; h++ {
			rec(append(bag, h), h)
		}
	}
	rec(nil, 1)
}

// The enumeration agrees with Definition 4 applied to every bag: a bag with
// more than k+1 elements sums to at least k+2 and stays conflicting when
// one element goes, so bags up to k+1 elements are all there is to check.
func TestCriticalPatternsAgainstDefinition(t *testing.T) {
	for k := 1; k <= 8; k++ {
		var want [][]int
		allBags(k, k+1, func(b []int) {
			sum := 0
			for _, h := range b {
				sum += h
			}
			critical := sum >= k+1
			for _, h := range b {
				if sum-h >= k+1 {
					critical = false
				}
			}
			if critical {
				want = append(want, slices.Clone(b))
			}
		})
		slices.SortFunc(want, slices.Compare[[]int])
		var got [][]int
		for r := range CriticalPatterns(k) {
			got = append(got, slices.Clone(r))
			sum := 0
			for _, h := range r {
				sum += h
			}
			// Theorem 2: the sum is at most k + min.
			if sum > k+r[0] {
				t.Errorf("k=%d: %v sums to %d > k + min", k, r, sum)
			}
		}
		if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
			t.Errorf("k=%d: %d patterns %v, definition gives %d %v", k, len(got), got, len(want), want)
		}
	}
}

// uniformHK is the uniform (h,k)-arbiter (Manabe and Tajima, Section 3.2):
// level h is every subset of ⌊kn/(k+h)⌋+1 nodes, plus delta.
func uniformHK(n, k, delta int) *set.HK {
	a := &set.HK{N: n, K: k, Kind: "uniform"}
	for h := 1; h <= k; h++ {
		w := max(1, min(n, k*n/(k+h)+1+delta))
		a.AddLevel(h, set.NewThreshold(n, w))
	}
	return a
}

func TestUniformHK(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for k := 1; k <= 5; k++ {
			a := uniformHK(n, k, 0)
			r := mustVerify(t, hk(a), Options{})
			checkReport(t, hk(a), r)
			if !r.Valid {
				t.Errorf("uniform (h,%d)-arbiter over %d nodes fails (Theorem 3): %+v", k, n, r.Failed())
			}
			// One node less in every level breaks it (the bound of Theorem 3
			// is tight for some pattern) unless sizes bottom out.
			b := uniformHK(n, k, -1)
			rb := mustVerify(t, hk(b), Options{})
			checkReport(t, hk(b), rb)
			if n <= 7 && k <= 3 {
				br := mustVerify(t, hk(b), Options{Method: Brute})
				checkReport(t, hk(b), br)
				if br.Valid != rb.Valid {
					t.Errorf("n=%d k=%d smaller uniform: counting %v, brute %v", n, k, rb.Valid, br.Valid)
				}
			}
		}
	}
	// The level k is the majority: its pattern {k, k} fails once a level
	// is half the nodes.
	a := uniformHK(10, 3, -1)
	r := mustVerify(t, hk(a), Options{})
	checkReport(t, hk(a), r)
	if r.Valid {
		t.Error("uniform (h,3)-arbiter over 10 nodes with one node less per level passes")
	}
}

// The (k+1)-cube (h,k)-arbiter satisfies Theorem 1 (Theorem 4), decided by
// the search and by brute force alike; losing a node of a quorum breaks it
// for some pattern, with a real witness.
func TestCubeHK(t *testing.T) {
	for _, c := range []struct{ a, k int }{{2, 1}, {3, 1}, {2, 2}, {3, 2}, {2, 3}, {3, 3}, {2, 4}, {4, 2}} {
		a := cubeHK(c.a, c.k)
		r := mustVerify(t, hk(a), Options{})
		checkReport(t, hk(a), r)
		if !r.Valid {
			t.Errorf("cube (h,k) a=%d k=%d fails: %+v", c.a, c.k, r.Failed())
		}
		if c.a <= 3 && c.k <= 2 {
			if b := mustVerify(t, hk(a), Options{Method: Brute}); !b.Valid {
				t.Errorf("cube (h,k) a=%d k=%d fails by brute force: %+v", c.a, c.k, b.Failed())
			}
		}
		for h := 1; h <= c.k; h++ {
			m := a.Clone()
			l := m.Level(h)
			v, _ := l.Quorums[0].Min()
			l.Quorums[0].Remove(v)
			r := mustVerify(t, hk(m), Options{})
			checkReport(t, hk(m), r)
			if c.a <= 3 && c.k <= 2 {
				b := mustVerify(t, hk(m), Options{Method: Brute})
				checkReport(t, hk(m), b)
				if b.Check("intersection", 0).OK != r.Check("intersection", 0).OK {
					t.Errorf("a=%d k=%d level %d less a node: search %+v, brute %+v", c.a, c.k, h,
						r.Check("intersection", 0), b.Check("intersection", 0))
				}
			}
		}
	}
}

func randomHK(r *rand.Rand) *set.HK {
	n := 2 + r.IntN(8)
	k := 1 + r.IntN(4)
	a := &set.HK{N: n, K: k}
	for h := 1; h <= k; h++ {
		if r.IntN(6) == 0 {
			continue // a missing level
		}
		if r.IntN(4) == 0 {
			a.AddLevel(h, set.NewThreshold(n, 1+r.IntN(n)))
			continue
		}
		a.AddLevel(h, testsys.Family(r, n, 1+r.IntN(6), 0.4+0.55*r.Float64()))
	}
	if len(a.Levels) == 0 {
		a.AddLevel(k, testsys.Family(r, n, 1+r.IntN(4), 0.7))
	}
	return a
}

func TestHKAgreesWithBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	iters := 2000
	if testing.Short() {
		iters = 400
	}
	fails := 0
	for it := range iters {
		a := randomHK(r)
		s := mustVerify(t, hk(a), Options{})
		b := mustVerify(t, hk(a), Options{Method: Brute})
		checkReport(t, hk(a), s)
		checkReport(t, hk(a), b)
		si, bi := s.Check("intersection", 0), b.Check("intersection", 0)
		if si.OK != bi.OK {
			t.Fatalf("#%d k=%d n=%d: search %+v, brute %+v", it, a.K, a.N, si, bi)
		}
		if !si.OK {
			fails++
			// Both stop at the first failing pattern in the same order.
			if !slices.Equal(si.Witness.Pattern, bi.Witness.Pattern) {
				t.Errorf("#%d: search fails on %v, brute on %v", it, si.Witness.Pattern, bi.Witness.Pattern)
			}
		}
	}
	if fails < iters/10 || fails > iters*9/10 {
		t.Errorf("%d of %d random (h,k)-arbiters failed; the generator is lopsided", fails, iters)
	}
}

func TestCancellation(t *testing.T) {
	// The 4-cube with a = 4 is also a 4-arbiter (five quorums always find a
	// common node: two of them agree on some coordinate, by pigeonhole), and
	// proving it 5-wise takes the search a while: cancel it.
	f := cubeArbiter(4, 3)
	f.K = 4

	// Cancelled before it starts.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Verify(ctx, fam(f), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Check("intersection", 0)
	if r.Valid || !r.Undecided || !c.Undecided || c.OK {
		t.Errorf("cancelled run: valid %v undecided %v check %+v", r.Valid, r.Undecided, c)
	}
	if _, err := FindDisjoint(ctx, f, 5); err != context.Canceled {
		t.Errorf("FindDisjoint after cancellation: %v", err)
	}

	// Cancelled in the middle: once the first of the search's tasks is
	// done, the workers take no more, so the check stays undecided.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var calls [][2]int64
	r, err = Verify(ctx, fam(f), Options{Progress: func(stage string, done, total int64) {
		if stage == "intersection" {
			calls = append(calls, [2]int64{done, total})
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	c = r.Check("intersection", 0)
	if r.Valid || !c.Undecided || c.OK || len(calls) == 0 || calls[len(calls)-1][0] >= calls[0][1] {
		t.Errorf("run cancelled after the first task: valid %v check %+v, progress %v", r.Valid, c, calls)
	}
}
