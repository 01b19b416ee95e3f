package rw

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/expr"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return r
}

// letters binds a..z to nodes 0..25.
func letters(t testing.TB, s string) *expr.Expr {
	t.Helper()
	e, err := expr.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Bind(func(name string) (int, error) {
		if len(name) != 1 || name[0] < 'a' || name[0] > 'z' {
			return 0, errors.New("not a letter: " + name)
		}
		return int(name[0] - 'a'), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tutorialNodes are the six nodes of quoracle's README: a..f with write
// capacities 1000, 500, 1000, 500, 1000, 500, read capacities ten times
// those, and latencies 1..6 s.
func tutorialNodes() []Node {
	nodes := make([]Node, 6)
	for i := range nodes {
		wc := int64(1000)
		if i%2 == 1 {
			wc = 500
		}
		nodes[i] = Node{Label: string(rune('a' + i)), WriteCapacity: big.NewRat(wc, 1), ReadCapacity: big.NewRat(10*wc, 1), Latency: big.NewRat(int64(i+1), 1)}
	}
	return nodes
}

// capacityNodes are the README's "heterogeneous" nodes: capacity 1000 for
// a, c, e and 500 for b, d, f, for reads and writes alike.
func capacityNodes() []Node {
	nodes := tutorialNodes()
	for i := range nodes {
		nodes[i].ReadCapacity = nodes[i].WriteCapacity
	}
	return nodes
}

func grid(t testing.TB, nodes []Node) *System {
	t.Helper()
	s, err := New(6, letters(t, "a*b*c + d*e*f"), nil, nodes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func optimal(t testing.TB, s *System, o Options) (*Strategy, *Metrics) {
	t.Helper()
	st, m, err := s.Optimal(context.Background(), o)
	if err != nil {
		t.Fatalf("Optimal: %v", err)
	}
	return st, m
}

func wantRat(t testing.TB, what string, got *big.Rat, want string) {
	t.Helper()
	if got == nil || got.Cmp(rat(want)) != 0 {
		t.Errorf("%s = %v, want %s", what, got, want)
	}
}

func TestTutorialResilience(t *testing.T) {
	// quoracle README, "Resilience": read 1, write 2, overall 1.
	ctx := context.Background()
	s := grid(t, nil)
	r, err := s.ReadResilience(ctx)
	if err != nil || r.F != 1 || r.Witness.Len() != 2 {
		t.Errorf("read resilience = %+v, %v; want 1 with 2 failing nodes", r, err)
	}
	if s.Reads.IsQuorum(complement(r.Witness, 6)) {
		t.Errorf("reads survive the failure of %v", r.Witness)
	}
	w, err := s.WriteResilience(ctx)
	if err != nil || w.F != 2 || w.Witness.Len() != 3 {
		t.Errorf("write resilience = %+v, %v; want 2", w, err)
	}
	if s.Writes.IsQuorum(complement(w.Witness, 6)) {
		t.Errorf("writes survive the failure of %v", w.Witness)
	}
}

func TestTutorialLoad(t *testing.T) {
	s := grid(t, nil)
	// README, "Load and Capacity": load 3/8 and capacity 8/3 at read
	// fraction 1/4 (quoracle prints 0.3749999975).
	st, m := optimal(t, s, Options{Workload: Fixed(rat("1/4"))})
	wantRat(t, "load", m.Load, "3/8")
	wantRat(t, "capacity", m.Capacity, "8/3")
	// The README's hand-made strategy: top row twice as often, columns
	// uniformly: load 2/3, 1/3 and 5/12 at read fractions 1, 0, 1/4.
	hand := &Strategy{
		Reads:  []Choice{{letters(t, "a*b*c").Nodes(), rat("2/3")}, {letters(t, "d*e*f").Nodes(), rat("1/3")}},
		Writes: []Choice{{letters(t, "a*d").Nodes(), rat("1/3")}, {letters(t, "b*e").Nodes(), rat("1/3")}, {letters(t, "c*f").Nodes(), rat("1/3")}},
	}
	for _, tt := range []struct{ fr, load string }{{"1", "2/3"}, {"0", "1/3"}, {"1/4", "5/12"}} {
		m, err := s.Evaluate(hand, Fixed(rat(tt.fr)))
		if err != nil {
			t.Fatal(err)
		}
		wantRat(t, "hand-made load at "+tt.fr, m.Load, tt.load)
	}
	// The optimal strategy for 1/4 evaluated elsewhere: 1/3 at 0, 5/12
	// at 1/2, 1/2 at 1 (README).
	for _, tt := range []struct{ fr, load string }{{"0", "1/3"}, {"1/2", "5/12"}, {"1", "1/2"}} {
		m, err := s.Evaluate(st, Fixed(rat(tt.fr)))
		if err != nil {
			t.Fatal(err)
		}
		wantRat(t, "optimal-for-1/4 load at "+tt.fr, m.Load, tt.load)
	}
}

func TestTutorialDistribution(t *testing.T) {
	// README, "Workload Distributions": 0.1 and 0.75 equally likely;
	// quoracle prints 0.40416666474999996 = 97/240 up to its LP tolerance.
	w, err := ParseWorkload("0.1:1,0.75:1")
	if err != nil {
		t.Fatal(err)
	}
	_, m := optimal(t, grid(t, nil), Options{Workload: w})
	wantRat(t, "expected load", m.Load, "97/240")
}

func TestTutorialCapacities(t *testing.T) {
	// README, "Heterogeneous Node": capacities 1000/500, 75% reads:
	// load 0.00075 = 3/4000, capacity 1333⅓.
	_, m := optimal(t, grid(t, capacityNodes()), Options{Workload: Fixed(rat("3/4"))})
	wantRat(t, "load", m.Load, "3/4000")
	wantRat(t, "capacity", m.Capacity, "4000/3")
	// Separate read and write capacities: 10000, 3913.04… = 90000/23
	// and 2000 at read fractions 1, 1/2, 0.
	s := grid(t, tutorialNodes())
	for _, tt := range []struct{ fr, cap string }{{"1", "10000"}, {"1/2", "90000/23"}, {"0", "2000"}} {
		_, m := optimal(t, s, Options{Workload: Fixed(rat(tt.fr))})
		wantRat(t, "capacity at "+tt.fr, m.Capacity, tt.cap)
	}
}

func TestTutorialResilientStrategies(t *testing.T) {
	// README, "f-resilient Strategies": all writes, the grid's capacity
	// falls from 2000 to 1000 with f = 1; "write 2 of 5" from 2000 to
	// 1333⅓.
	s := grid(t, tutorialNodes())
	for _, tt := range []struct {
		f   int
		cap string
	}{{0, "2000"}, {1, "1000"}} {
		_, m := optimal(t, s, Options{Workload: Fixed(rat("0")), F: tt.f})
		wantRat(t, "grid capacity", m.Capacity, tt.cap)
	}
	w2, err := New(5, nil, letters(t, "choose(2, a, b, c, d, e)"), tutorialNodes()[:5])
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		f   int
		cap string
	}{{0, "2000"}, {1, "4000/3"}} {
		st, m := optimal(t, w2, Options{Workload: Fixed(rat("0")), F: tt.f})
		wantRat(t, "write-2 capacity", m.Capacity, tt.cap)
		for _, c := range st.Writes {
			if c.Quorum.Len() != 2+tt.f {
				t.Errorf("f = %d: write set %v, want %d nodes", tt.f, c.Quorum, 2+tt.f)
			}
		}
	}
}

func TestTutorialLatency(t *testing.T) {
	s := grid(t, tutorialNodes())
	half := Fixed(rat("1/2"))
	// README, "Latency": the latency-optimal strategy at 1/2 takes 3.5 s
	// (3 s reads from a, b, c; 4 s writes).
	st, m := optimal(t, s, Options{Workload: half, Optimize: MinLatency})
	wantRat(t, "latency", m.Latency, "7/2")
	for _, tt := range []struct{ fr, lat string }{{"1", "3"}, {"0", "4"}} {
		m, err := s.Evaluate(st, Fixed(rat(tt.fr)))
		if err != nil {
			t.Fatal(err)
		}
		wantRat(t, "latency at "+tt.fr, m.Latency, tt.lat)
	}
	// The latency of {a, b, d, f} as a write quorum is 4 s: {a, b, d}
	// answers first.
	if got := s.quorumLatency(&s.Writes, letters(t, "a*b*d*f").Nodes()); got.Cmp(rat("4")) != 0 {
		t.Errorf("latency of {a, b, d, f} = %v, want 4", got)
	}
	// Capacity at least 1500: latency 3⅔ s (README: 0:00:03.666667).
	_, m = optimal(t, s, Options{Workload: half, Optimize: MinLatency, LoadLimit: rat("1/1500")})
	wantRat(t, "latency under a load limit", m.Latency, "11/3")
	if m.Load.Cmp(rat("1/1500")) > 0 {
		t.Errorf("load %v above the limit 1/1500", m.Load)
	}
	// Load-optimal within 4 s: capacity 3856.209… (README).
	_, m = optimal(t, s, Options{Workload: half, LatencyLimit: rat("4")})
	if f, _ := m.Capacity.Float64(); f < 3856.20 || f > 3856.22 {
		t.Errorf("capacity within 4 s = %v (%s), want 3856.21", f, m.Capacity.RatString())
	}
	if m.Latency.Cmp(rat("4")) > 0 {
		t.Errorf("latency %v above the limit 4", m.Latency)
	}
	// A 1 s limit cannot be met.
	if _, _, err := s.Optimal(context.Background(), Options{Workload: half, LatencyLimit: rat("1")}); !errors.Is(err, ErrNoStrategy) {
		t.Errorf("latency limit 1 s: err = %v, want ErrNoStrategy", err)
	}
}

func TestTutorialNetwork(t *testing.T) {
	// README, "Network Load": 2.5 at read fraction 1/2.
	s := grid(t, tutorialNodes())
	_, m := optimal(t, s, Options{Workload: Fixed(rat("1/2")), Optimize: MinNetwork})
	wantRat(t, "network load", m.Network, "5/2")
	_, m = optimal(t, s, Options{Workload: Fixed(rat("1/2")), Optimize: MinNetwork, LoadLimit: rat("1/2000"), LatencyLimit: rat("4")})
	if m.Load.Cmp(rat("1/2000")) > 0 || m.Latency.Cmp(rat("4")) > 0 {
		t.Errorf("limits broken: load %v latency %v", m.Load, m.Latency)
	}
}
