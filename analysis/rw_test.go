package analysis_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

func rwSystem(t *testing.T, n int, reads, writes string) *rw.System {
	t.Helper()
	bind := func(s string) *expr.Expr {
		if s == "" {
			return nil
		}
		e, err := expr.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		e, err = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	s, err := rw.New(n, bind(reads), bind(writes), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// liveMasks are the subsets of the n nodes on which side has a quorum,
// from its formula evaluated on all 2^n subsets.
func liveMasks(sd *rw.Side, n int) []uint32 {
	var out []uint32
	for m := uint32(0); m < 1<<n; m++ {
		s := set.New(n)
		for v := range n {
			if m&(1<<v) != 0 {
				s.Add(v)
			}
		}
		if sd.IsQuorum(s) {
			out = append(out, m)
		}
	}
	return out
}

// The figures of quoracle's 2×3 grid (rows read, one node of each row
// writes) and of a system whose writes miss a read quorum, against brute
// force over all 2^6 subsets.
func TestReadWriteAgainstBruteForce(t *testing.T) {
	for _, tt := range []struct {
		name, reads, writes string
		meet                bool
	}{
		{"grid dual", "a*b*c + d*e*f", "", true},
		{"grid rows and columns", "a*b*c + d*e*f", "a*d + b*e + c*f", true},
		{"writes miss reads", "a*b*c + d*e*f", "a*b", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := rwSystem(t, 6, tt.reads, tt.writes)
			w, err := rw.ParseWorkload("0.25")
			if err != nil {
				t.Fatal(err)
			}
			ps := []float64{0.5, 0.9}
			var stages []string
			r, err := analysis.ReadWrite(context.Background(), sys, analysis.RWOptions{Limit: 1 << 12, Intersection: true,
				Strategy: &rw.Options{Workload: w}, Points: ps,
				Progress: func(s string, _, _ int64) { stages = append(stages, s) }})
			if err != nil {
				t.Fatal(err)
			}
			// Every live set is a quorum (a superset of a minimal one), so
			// the brute-force figures over all quorums are those over the
			// minimal ones.
			rq, wq := liveMasks(&sys.Reads, 6), liveMasks(&sys.Writes, 6)
			if r.Read.F != bruteResilience(rq, 6) || r.Write.F != bruteResilience(wq, 6) {
				t.Errorf("resilience reads %d writes %d, brute force %d %d", r.Read.F, r.Write.F, bruteResilience(rq, 6), bruteResilience(wq, 6))
			}
			minimal := 0
			for _, a := range rq {
				isMin := true
				for _, b := range rq {
					isMin = isMin && (b == a || b&a != b)
				}
				if isMin {
					minimal++
				}
			}
			if r.ReadQuorums == nil || r.ReadQuorums.Int64() != int64(minimal) {
				t.Errorf("read quorums %v, brute force %d minimal", r.ReadQuorums, minimal)
			}
			meet := true
			for _, a := range rq {
				for _, b := range wq {
					meet = meet && a&b != 0
				}
			}
			if meet != tt.meet {
				t.Fatalf("brute force says the sides meet: %v", meet)
			}
			switch {
			case sys.WritesDerived:
				if r.Intersection != nil {
					t.Errorf("a derived side is checked: %+v", r.Intersection)
				}
			case r.Intersection == nil || r.Intersection.OK != meet:
				t.Errorf("intersection %+v (%v), brute force %v", r.Intersection, r.IntersectionErr, meet)
			}
			for k, p := range ps {
				a := r.Availability[k]
				if math.Abs(a.Reads-bruteAV(rq, 6, p)) > 1e-12 || math.Abs(a.Writes-bruteAV(wq, 6, p)) > 1e-12 {
					t.Errorf("AV(%g) %+v, brute force reads %g writes %g", p, a, bruteAV(rq, 6, p), bruteAV(wq, 6, p))
				}
			}
			if r.Metrics == nil || r.Strategy == nil {
				t.Fatalf("no strategy")
			}
			if tt.writes == "" && r.Metrics.Load.Cmp(big.NewRat(3, 8)) != 0 {
				// quoracle's tutorial: load 3/8 at a read fraction of 1/4.
				t.Errorf("load %s, want 3/8", r.Metrics.Load.RatString())
			}
			want := []string{"intersection", "resilience", "load", "availability"}
			if tt.writes == "" {
				want = want[1:] // a derived side meets by construction
			}
			if strings.Join(stages, ",") != strings.Join(want, ",") {
				t.Errorf("stages %q, want %q", stages, want)
			}
		})
	}
}

// A figure that fails names itself.
func TestReadWriteFigureError(t *testing.T) {
	sys := rwSystem(t, 6, "a*b*c + d*e*f", "")
	w, _ := rw.ParseWorkload("0.25")
	_, err := analysis.ReadWrite(context.Background(), sys, analysis.RWOptions{
		Strategy: &rw.Options{Workload: w, Optimize: rw.MinLatency, LoadLimit: big.NewRat(1, 100)}})
	var fe *analysis.FigureError
	if !errors.As(err, &fe) || fe.Figure != analysis.Strategy || !errors.Is(err, rw.ErrNoStrategy) {
		t.Errorf("load limit 1/100: %v", err)
	}
}

// The exact availability of reads, writes and both at once, without
// domains, against brute force over all 2^6 subsets.
func TestReadWriteExactAgainstBruteForce(t *testing.T) {
	sys := rwSystem(t, 6, "a*b*c + d*e*f", "a*d + b*e + c*f")
	ps := []float64{0.5, 0.9}
	_, pts, err := analysis.ReadWriteExact(context.Background(), sys, nil, ps, 1<<12, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range ps {
		var reads, writes, both float64
		for m := uint32(0); m < 1<<6; m++ {
			live := set.New(6)
			for v := range 6 {
				if m&(1<<v) != 0 {
					live.Add(v)
				}
			}
			pr := math.Pow(p, float64(live.Len())) * math.Pow(1-p, float64(6-live.Len()))
			r, w := sys.Reads.IsQuorum(live), sys.Writes.IsQuorum(live)
			if r {
				reads += pr
			}
			if w {
				writes += pr
			}
			if r && w {
				both += pr
			}
		}
		got := pts[k]
		for _, c := range []struct {
			name string
			av   *big.Rat
			want float64
		}{{"reads", got.Reads, reads}, {"writes", got.Writes, writes}, {"both", got.Both, both}} {
			f, _ := c.av.Float64()
			if got.P != p || math.Abs(f-c.want) > 1e-12 {
				t.Errorf("%s at %g: %g, brute force %g", c.name, p, f, c.want)
			}
		}
	}
}

// The availability of one side, by composition for a read-once formula and
// from the listed quorums otherwise, against brute force over all 2^6
// subsets: the values, the curve and the polynomial's coefficients.
func TestSideAvailabilityAgainstBruteForce(t *testing.T) {
	for _, tt := range []struct {
		reads  string
		method string
	}{
		{"a*b*c + d*e*f", string(analysis.MethodReadOnce)},
		{"a*b*c + a*e*f", ""}, // repeats a: listed
	} {
		sys := rwSystem(t, 6, tt.reads, "")
		ps := []float64{0.5, 0.9}
		av, err := analysis.SideAvailability(context.Background(), sys, &sys.Reads, ps, analysis.SideOptions{Limit: 100, Curve: []float64{0.7}})
		if err != nil {
			t.Fatal(err)
		}
		if !av.Exact || av.Poly == nil || tt.method != "" && string(av.Method) != tt.method {
			t.Fatalf("%s: exact %v method %s", tt.reads, av.Exact, av.Method)
		}
		live := liveMasks(&sys.Reads, 6)
		counts := make([]int64, 7)
		for _, m := range live {
			counts[bits.OnesCount32(m)]++
		}
		for i, c := range counts {
			if av.Poly.A[i].Int64() != c {
				t.Errorf("%s: A[%d] = %s, brute force %d", tt.reads, i, av.Poly.A[i], c)
			}
		}
		// Every live set holds a quorum, so summing over the live sets is
		// the availability.
		for _, pt := range append(av.Points, av.Curve...) {
			want := 0.0
			for _, m := range live {
				k := bits.OnesCount32(m)
				want += math.Pow(pt.P, float64(k)) * math.Pow(1-pt.P, float64(6-k))
			}
			if !pt.Exact || math.Abs(pt.AV-want) > 1e-12 {
				t.Errorf("%s: AV(%g) = %+v, brute force %g", tt.reads, pt.P, pt, want)
			}
		}
	}
	sys := rwSystem(t, 6, "a*b*c + a*e*f", "")
	_, err := analysis.SideAvailability(context.Background(), sys, &sys.Reads, []float64{0.9}, analysis.SideOptions{Limit: 1})
	var fe *analysis.FigureError
	if !errors.As(err, &fe) || fe.Figure != analysis.Quorums {
		t.Errorf("limit 1: %v", err)
	}
}
