package protocol

import (
	"fmt"
	"math"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// Maekawa's Table I: under light demand his algorithm takes 3(K−1) messages
// per critical section — (K−1) REQUEST, LOCKED and RELEASE, a node's
// messages to itself not counted (Section 8.1) — and Ricart and Agrawala's
// 2(N−1). Light demand has no contention, so the counts are exact, entry by
// entry; with constant delays the entry delay is exactly one round trip.
func TestTableI(t *testing.T) {
	for _, tt := range []struct {
		name     string
		f        func(testing.TB) *set.Family
		n, k     int
		proposed int // Table I, "Proposed algorithm"
		ricart   int // Table I, "Ricart and Agrawala's algorithm"
		entries  int
	}{
		{"Fig. 1(a)", func(t testing.TB) *set.Family { return fig(t, 2) }, 3, 2, 3, 4, 300},
		{"Fig. 1(b)", func(t testing.TB) *set.Family { return fig(t, 3) }, 7, 3, 6, 12, 300},
		{"Fig. 1(c)", func(t testing.TB) *set.Family { return fig(t, 4) }, 13, 4, 9, 24, 300},
		{"Fig. 1(d)", func(t testing.TB) *set.Family { return fig(t, 5) }, 21, 5, 12, 40, 300},
		{"PG(2,11)", func(t testing.TB) *set.Family { return plane(t, 11) }, 133, 12, 33, 264, 200},
		{"PG(2,19)", func(t testing.TB) *set.Family { return plane(t, 19) }, 381, 20, 57, 760, 100},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := system(t, tt.f(t))
			if sys.N != tt.n || sys.MaxQuorum() != tt.k {
				t.Fatalf("N = %d, K = %d; Table I says %d, %d", sys.N, sys.MaxQuorum(), tt.n, tt.k)
			}
			if got := 3 * (tt.k - 1); got != tt.proposed {
				t.Fatalf("3(K−1) = %d, Table I prints %d", got, tt.proposed)
			}
			for _, spec := range []string{"maekawa", "maekawa-fixed"} {
				r := run(t, spec, sys, Config{Load: light, Entries: tt.entries, Seed: 7, Delay: constDelay(1)})
				if r.Entries != tt.entries || r.Messages != int64(tt.entries*tt.proposed) {
					t.Errorf("%s: %d messages for %d entries, want exactly %d per entry", spec, r.Messages, r.Entries, tt.proposed)
				}
				for _, kind := range []string{"REQUEST", "LOCKED", "RELEASE"} {
					if got := r.ByType[kind]; got != float64(tt.k-1) {
						t.Errorf("%s: %s per entry = %v, want K−1 = %d", spec, kind, got, tt.k-1)
					}
				}
				if len(r.ByType) != 3 {
					t.Errorf("%s: message kinds %v, want only REQUEST, LOCKED, RELEASE", spec, r.ByType)
				}
				// REQUEST out and LOCKED back: two message delays.
				if r.MaxWait != 2 || r.P50Wait != 2 {
					t.Errorf("%s: entry delay max %v, median %v; want 2 message delays", spec, r.MaxWait, r.P50Wait)
				}
			}
			r := run(t, "ricart-agrawala", sys, Config{Load: light, Entries: tt.entries, Seed: 7})
			if r.Messages != int64(tt.entries*tt.ricart) || r.ByType["REQUEST"] != float64(tt.n-1) {
				t.Errorf("ricart-agrawala: %d messages for %d entries (%v), want %d per entry",
					r.Messages, r.Entries, r.ByType, tt.ricart)
			}
		})
	}
}

// Maekawa's Table II: on Method 1's degenerated sets the light-demand count
// is 3·|S_i − {i}| for a request from node i; the table averages it over
// requests "made uniformly from each node". The simulation must agree entry
// by entry, and its mean over many uniform requests must approach the
// table.
func TestTableII(t *testing.T) {
	for _, tt := range []struct {
		n, k  int
		table float64 // Table II, "Proposed algorithm"
	}{
		{5, 3, 4.8},
		{6, 3, 5.5},
		{10, 4, 8.1},
		{18, 5, 11.7},
	} {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			f := method1(t, tt.n, tt.k)
			// Table II's own calculation, from the sets.
			var sum int
			for i := range f.Quorums {
				sum += 3 * (f.Quorums[i].Len() - 1) // every S_i holds its owner i
				if !f.Quorums[i].Has(f.Owners[i]) {
					t.Fatalf("S_%d does not hold %d", f.Owners[i]+1, f.Owners[i]+1)
				}
			}
			mean := float64(sum) / float64(len(f.Quorums))
			if got := fmt.Sprintf("%.1f", mean); got != fmt.Sprintf("%.1f", tt.table) {
				t.Fatalf("Table II's calculation gives %s, the table prints %.1f", got, tt.table)
			}
			sys := system(t, f)
			const entries = 20000
			r := run(t, "maekawa", sys, Config{Load: light, Entries: entries, Seed: 3})
			if r.Messages != 3*r.SumRemote {
				t.Errorf("%d messages, want 3·Σ|S_i − {i}| = %d", r.Messages, 3*r.SumRemote)
			}
			var want int64
			for i, c := range r.PerNode {
				want += int64(c) * int64(3*(f.Quorums[i].Len()-1))
			}
			if r.Messages != want {
				t.Errorf("%d messages, want %d from the requesters' sets", r.Messages, want)
			}
			// Uniform requesters: the mean is within a few standard errors.
			if math.Abs(r.MessagesPerEntry-mean) > 0.05*mean {
				t.Errorf("mean %.3f messages per entry, Table II's calculation %.3f", r.MessagesPerEntry, mean)
			}
		})
	}
}

// Under heavy demand Maekawa expects between 3(K−1) and 5(K−1) messages per
// entry: a new REQUEST mostly meets FAILED, giving 4(K−1); INQUIRE and
// RELINQUISH can push it to 5(K−1) (Section 8.2). The algorithm as printed
// can deadlock when every node asks at once (see
// TestMaekawaDeadlocksUnderHeavyDemand); the fixed variant runs it through.
func TestHeavyMaekawa(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *set.Family
	}{
		{"Fig. 1(b)", fig(t, 3)},
		{"Fig. 1(c)", fig(t, 4)},
		{"PG(2,5)", plane(t, 5)},
		{"PG(2,8)", plane(t, 8)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := system(t, tt.f)
			k := float64(sys.MaxQuorum())
			for seed := uint64(1); seed <= 3; seed++ {
				r := run(t, "maekawa-fixed", sys, Config{Load: heavy, Entries: 5000, Seed: seed})
				if r.Deadlock || r.SafetyViolations != 0 {
					t.Fatalf("seed %d: deadlock %v, %d violations", seed, r.Deadlock, r.SafetyViolations)
				}
				if m := r.MessagesPerEntry; m < 3*(k-1) || m > 5*(k-1) {
					t.Errorf("seed %d: %.3f messages per entry, outside [3(K−1), 5(K−1)] = [%v, %v]", seed, m, 3*(k-1), 5*(k-1))
				}
				if f := r.ByType["FAILED"]; f < 0.5*(k-1) {
					t.Errorf("seed %d: %.3f FAILED per entry: heavy demand should meet FAILED", seed, f)
				}
				t.Logf("seed %d: %.3f messages per entry (%.2f·(K−1)), %v", seed, r.MessagesPerEntry, r.MessagesPerEntry/(k-1), r.ByType)
				// As printed, when it gets past the start, the same holds.
				p := run(t, "maekawa", sys, Config{Load: heavy, Entries: 5000, Seed: seed})
				if m := p.MessagesPerEntry; !p.Deadlock && (m < 3*(k-1) || m > 5*(k-1)) {
					t.Errorf("seed %d, as printed: %.3f messages per entry", seed, m)
				}
			}
		})
	}
}

// Kakugawa et al. count exactly 3|q| messages per entry, whatever the load
// (Section 6.1): one REQUEST, one PERMIT and one RELEASE per member, the
// requester itself included. With constant delays and no contention the
// entry takes a round trip per member other than the requester (a node
// asks itself in a local step): 2T·|q − {i}|, the paper's best case 2T|q|
// less the local one.
func TestOrderedExactly3q(t *testing.T) {
	systems := map[string]*set.Family{"Fig. 1(c)": fig(t, 4), "PG(2,7)": plane(t, 7), "Method 1, N = 10": method1(t, 10, 4)}
	g, err := construct.Grid(4, 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	systems["grid 4×5"] = g
	for name, f := range systems {
		sys := system(t, f)
		for _, load := range []Load{light, heavy, poisson(0.02), poisson(1)} {
			r := run(t, "ordered", sys, Config{Load: load, Entries: 3000, Seed: 5})
			if r.Messages != 3*r.SumQuorum || r.Deadlock || r.SafetyViolations != 0 {
				t.Errorf("%s, %s: %d messages for Σ|q| = %d (want 3Σ|q|); deadlock %v, %d violations",
					name, load, r.Messages, r.SumQuorum, r.Deadlock, r.SafetyViolations)
			}
		}
		r := run(t, "ordered", sys, Config{Load: light, Entries: 200, Seed: 5, Delay: constDelay(1)})
		if want := 2 * r.MeanRemote; math.Abs(r.MeanWait-want) > 1e-6 {
			t.Errorf("%s: mean entry delay %v, want 2·mean|q − {i}| = %v", name, r.MeanWait, want)
		}
	}
}

// Manabe and Tajima, Section 4.3: 3|q| messages per request without
// conflict, never more than (3h+3)|q|: every cancel a request causes (at most
// h per member) brings a cancelled and a fresh OK. Totals over a run obey
// the same bounds, request by request.
func TestHKMessageBounds(t *testing.T) {
	uni, err := construct.UniformHK(7, 3)
	if err != nil {
		t.Fatal(err)
	}
	cube, err := construct.CubeHK(2, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	karb, err := construct.Uniform(6, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		sys  *System
	}{
		{"uniform (h,3) on 7 nodes", hkSystem(t, uni)},
		{"3-cube (h,2) on 8 nodes", hkSystem(t, cube)},
		{"uniform 2-arbiter on 6 nodes", system(t, karb)},
		{"Fig. 1(c) as 1-out of-1", system(t, fig(t, 4))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "hk", tt.sys, Config{Load: light, Entries: 2000, Seed: 9})
			if r.Messages != 3*r.SumQuorum {
				t.Errorf("light: %d messages, want 3Σ|q| = %d", r.Messages, 3*r.SumQuorum)
			}
			if tt.sys.K > 1 && (r.MeanUnits <= 1 || r.MeanUnits >= float64(tt.sys.K)) {
				t.Errorf("light: mean h = %v, want requests of random h in 1..%d", r.MeanUnits, tt.sys.K)
			}
			for _, load := range []Load{heavy, poisson(0.5)} {
				r := run(t, "hk", tt.sys, Config{Load: load, Entries: 5000, Seed: 9})
				if r.Deadlock || r.SafetyViolations != 0 {
					t.Fatalf("%s: deadlock %v, %d violations", load, r.Deadlock, r.SafetyViolations)
				}
				if r.Messages < 3*r.SumQuorum || r.Messages > r.SumHKBound {
					t.Errorf("%s: %d messages, want between 3Σ|q| = %d and Σ(3h+3)|q| = %d",
						load, r.Messages, 3*r.SumQuorum, r.SumHKBound)
				}
				t.Logf("%s: %.2f messages per entry (3|q| = %.2f), %v", load, r.MessagesPerEntry, 3*r.MeanQuorum, r.ByType)
			}
		})
	}
}

// Under light demand every protocol meets its paper's count exactly, and the
// report says so.
func TestPaperExpectation(t *testing.T) {
	sys := system(t, method1(t, 10, 4))
	for _, spec := range Names() {
		r := run(t, spec, sys, Config{Load: light, Entries: 500, Seed: 4})
		if r.Paper.Formula == "" || math.Abs(r.Paper.Low-r.MessagesPerEntry) > 1e-9 || r.Paper.High < r.Paper.Low {
			t.Errorf("%s: %v messages per entry, paper %+v", spec, r.MessagesPerEntry, r.Paper)
		}
	}
}

// Ricart and Agrawala: exactly 2(N−1) messages per entry under any load.
func TestRicartAgrawala2N(t *testing.T) {
	sys := system(t, fig(t, 4))
	for _, load := range []Load{light, heavy, poisson(0.1)} {
		r := run(t, "ricart-agrawala", sys, Config{Load: load, Entries: 3000, Seed: 2})
		if r.Messages != int64(2*(sys.N-1)*r.Entries) || r.Deadlock || r.SafetyViolations != 0 {
			t.Errorf("%s: %d messages for %d entries, want 2(N−1) = %d each; deadlock %v, %d violations",
				load, r.Messages, r.Entries, 2*(sys.N-1), r.Deadlock, r.SafetyViolations)
		}
	}
}
