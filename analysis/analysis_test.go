package analysis_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/bits"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// masks returns the quorums of a small family as bit masks.
func masks(t *testing.T, f *set.Family) []uint32 {
	t.Helper()
	if f.N > 16 {
		t.Fatalf("brute force over 2^%d subsets", f.N)
	}
	var out []uint32
	for _, q := range f.All() {
		var m uint32
		for _, v := range q.Elements() {
			m |= 1 << v
		}
		out = append(out, m)
	}
	return out
}

// bruteResilience is one less than the smallest set meeting every quorum,
// over all 2^n subsets.
func bruteResilience(qs []uint32, n int) int {
	best := n + 1
	for s := uint32(0); s < 1<<n; s++ {
		hits := true
		for _, q := range qs {
			if q&s == 0 {
				hits = false
				break
			}
		}
		if hits && bits.OnesCount32(s) < best {
			best = bits.OnesCount32(s)
		}
	}
	return best - 1
}

// bruteAV is the probability that some quorum is live when each node is
// up with probability p, summed over all 2^n subsets.
func bruteAV(qs []uint32, n int, p float64) float64 {
	av := 0.0
	for s := uint32(0); s < 1<<n; s++ {
		for _, q := range qs {
			if q&s == q {
				k := bits.OnesCount32(s)
				av += math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
				break
			}
		}
	}
	return av
}

// bruteIntersection is the smallest intersection of two distinct quorums.
func bruteIntersection(qs []uint32) int {
	best := math.MaxInt
	for i := range qs {
		for j := i + 1; j < len(qs); j++ {
			best = min(best, bits.OnesCount32(qs[i]&qs[j]))
		}
	}
	return best
}

func mustFamily(t *testing.T, f *set.Family, err error) *set.Family {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestMeasureAgainstBruteForce(t *testing.T) {
	fano, err := construct.ProjectivePlane(2)
	fano = mustFamily(t, fano, err)
	grid, err := construct.Grid(3, 3, 9)
	grid = mustFamily(t, grid, err)
	maj, err := construct.Majority(7)
	maj = mustFamily(t, maj, err)
	for _, tt := range []struct {
		name string
		f    *set.Family
		// The loads are Naor and Wool's: (q+1)/(q²+q+1) for the plane of
		// order q, (2√n−1)/n for the √n×√n grid, w/n for majority.
		load string
	}{
		{"fano", fano, "3/7"},
		{"grid 3x3", grid, "5/9"},
		{"majority 7", maj, "4/7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := []float64{0.5, 0.9, 0.99}
			r, err := analysis.Measure(context.Background(), set.System{Family: tt.f}, analysis.Options{Points: ps})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Families) != 1 || r.Levels || r.Stopped != 0 || r.N != tt.f.N {
				t.Fatalf("system %+v", r)
			}
			fa := r.Families[0]
			qs := masks(t, tt.f)
			if fa.LoadStatus.Reason != analysis.Computed || fa.Load == nil || fa.Load.Exact == nil || fa.Load.Exact.RatString() != tt.load {
				t.Errorf("load %+v (%+v), want %s", fa.Load, fa.LoadStatus, tt.load)
			}
			if want := bruteResilience(qs, tt.f.N); fa.Resilience == nil || fa.Resilience.Bounded || fa.Resilience.F != want {
				t.Errorf("resilience %+v, brute force %d", fa.Resilience, want)
			}
			// Malkhi and Reiter: b-masking needs every intersection ≥ 2b+1,
			// b-dissemination ≥ b+1, and b below the smallest transversal.
			i, tau := bruteIntersection(qs), bruteResilience(qs, tt.f.N)+1
			wantM, wantD := min((i-1)/2, tau-1), min(i-1, tau-1)
			if fa.Byzantine == nil || fa.Byzantine.Masking != wantM || fa.Byzantine.Dissemination != wantD {
				t.Errorf("byzantine %+v (%+v), brute force masking %d dissemination %d", fa.Byzantine, fa.ByzantineStatus, wantM, wantD)
			}
			if len(fa.Availability) != len(ps) {
				t.Fatalf("availability %+v", fa.Availability)
			}
			for k, p := range ps {
				pt := fa.Availability[k]
				want := bruteAV(qs, tt.f.N, p)
				if !pt.Exact || pt.P != p || math.Abs(pt.AV-want) > 1e-12 {
					t.Errorf("AV(%g) = %+v, brute force %g", p, pt, want)
				}
				u, _ := pt.U.Float64()
				if math.Abs(u-(1-want)) > 1e-12 {
					t.Errorf("1 − AV(%g) = %g, brute force %g", p, u, 1-want)
				}
			}
			// Maekawa's count, light demand: 3(K − 1) for quorums of K.
			if fa.Stats.EqualSize() {
				want := big.NewRat(int64(3*(fa.Stats.MinSize-1)), 1)
				if fa.Messages.MaekawaLight.Cmp(want) != 0 {
					t.Errorf("messages %s, want %s", fa.Messages.MaekawaLight.RatString(), want.RatString())
				}
			}
		})
	}
}

func TestMeasureArbiterLevels(t *testing.T) {
	hk, err := construct.UniformHK(6, 2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := analysis.Measure(context.Background(), set.System{HK: hk}, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Levels || len(r.Families) != len(hk.Levels) || r.K != 2 {
		t.Fatalf("levels %v, %d families for %d levels, k %d", r.Levels, len(r.Families), len(hk.Levels), r.K)
	}
	for i, fa := range r.Families {
		if fa.F != hk.Levels[i] {
			t.Errorf("family %d is not level %d", i, i+1)
		}
		// The Byzantine figures are for quorum systems (k = 1) only.
		if fa.ByzantineStatus.Reason != analysis.NotAsked || fa.Byzantine != nil {
			t.Errorf("level %d: byzantine %+v", i+1, fa.ByzantineStatus)
		}
		want := bruteResilience(masks(t, fa.F), fa.F.N)
		if fa.Resilience == nil || fa.Resilience.F != want {
			t.Errorf("level %d: resilience %+v, brute force %d", i+1, fa.Resilience, want)
		}
	}
}

func TestMeasureSkipsAndStops(t *testing.T) {
	fano, err := construct.ProjectivePlane(2)
	fano = mustFamily(t, fano, err)
	sys := set.System{Family: fano}

	var stages []string
	r, err := analysis.Measure(context.Background(), sys, analysis.Options{NoLoad: true, NoByzantine: true,
		Progress: func(stage string, done, total int64) { stages = append(stages, stage) }})
	if err != nil {
		t.Fatal(err)
	}
	fa := r.Families[0]
	if fa.Load != nil || fa.LoadStatus.Reason != analysis.NotAsked || fa.Resilience == nil ||
		fa.ByzantineStatus.Reason != analysis.NotAsked || fa.AvailabilityStatus.Reason != analysis.NotAsked {
		t.Errorf("skipped figures: %+v", fa)
	}
	if len(stages) != 1 || stages[0] != "resilience" {
		t.Errorf("progress told %q, want [resilience]", stages)
	}

	// A context ended before the start, with StrictBudget: the figures
	// that cost nothing are there, the first long one is Stopped, the rest
	// not asked.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = analysis.Measure(ctx, sys, analysis.Options{Points: []float64{0.9}, StrictBudget: true})
	if !errors.Is(err, context.Canceled) || r == nil {
		t.Fatalf("cancelled: %v, %v", r, err)
	}
	fa = r.Families[0]
	if r.Stopped != analysis.Load || fa.LoadStatus.Reason != analysis.Stopped || fa.Load != nil ||
		fa.ResilienceStatus.Reason != analysis.NotAsked || fa.Stats.Quorums.Int64() != 7 {
		t.Errorf("cancelled: stopped %v, family %+v", r.Stopped, fa)
	}
}

func TestMeasureByzantineTooLarge(t *testing.T) {
	// The plane of order 64 has 64²+64+1 = 4161 lines, more than
	// MaxByzantineQuorums.
	f, err := construct.ProjectivePlane(64)
	f = mustFamily(t, f, err)
	fa, err := analysis.MeasureFamily(context.Background(), f, analysis.Options{NoLoad: true, NoResilience: true})
	if err != nil {
		t.Fatal(err)
	}
	if fa.ByzantineStatus.Reason != analysis.TooLarge || fa.Byzantine != nil {
		t.Errorf("byzantine %+v", fa.ByzantineStatus)
	}
}

// A budget that has run out before the load starts: with StrictBudget the
// load is left out (OutOfBudget), without it the Fano plane's load, which
// a formula gives at once (it is regular), is still there.
func TestStrictBudget(t *testing.T) {
	fano, err := construct.ProjectivePlane(2)
	fano = mustFamily(t, fano, err)
	for _, strict := range []bool{true, false} {
		fa, err := analysis.MeasureFamily(context.Background(), fano, analysis.Options{Budget: time.Nanosecond,
			StrictBudget: strict, NoResilience: true, NoByzantine: true})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strict && (fa.Load != nil || fa.LoadStatus.Reason != analysis.OutOfBudget):
			t.Errorf("strict: load %+v, status %+v", fa.Load, fa.LoadStatus)
		case !strict && (fa.Load == nil || fa.Load.Exact.RatString() != "3/7"):
			t.Errorf("not strict: load %+v, status %+v", fa.Load, fa.LoadStatus)
		}
	}
}
