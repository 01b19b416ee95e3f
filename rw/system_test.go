package rw

import (
	"context"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

func TestReadWriteWitness(t *testing.T) {
	ctx := context.Background()
	// quoracle README: reads a+b+c with writes d+e+f do not intersect.
	s, err := New(6, letters(t, "a+b+c"), letters(t, "d+e+f"), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.ReadWrite(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || set.Intersects(res.Read, res.Write) || !s.Reads.IsQuorum(res.Read) || !s.Writes.IsQuorum(res.Write) {
		t.Fatalf("ReadWrite = %+v, want a disjoint read/write pair", res)
	}
	// The grid and its column writes (given explicitly) do intersect, but
	// two writes need not: {a, d} and {b, e}.
	g, err := New(6, letters(t, "a*b*c + d*e*f"), letters(t, "(a+b+c)*(d+e+f)"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := g.ReadWrite(ctx, 0); err != nil || !res.OK {
		t.Errorf("grid ReadWrite = %+v, %v", res, err)
	}
	ww, err := g.WriteWrite(ctx, 0)
	if err != nil || ww.OK || set.Intersects(ww.Read, ww.Write) {
		t.Errorf("grid WriteWrite = %+v, %v; want two disjoint writes", ww, err)
	}
	// Majorities of 1001 nodes by counting: 501 + 501 > 1001, and reads
	// of 500 with writes of 501 miss.
	maj, _ := New(1001, expr.Threshold(1001, 501), nil, nil)
	if res, err := maj.WriteWrite(ctx, 10); err != nil || !res.OK {
		t.Errorf("majority WriteWrite = %+v, %v", res, err)
	}
	bad, _ := New(1001, expr.Threshold(1001, 500), expr.Threshold(1001, 501), nil)
	if res, err := bad.ReadWrite(ctx, 10); err != nil || res.OK || set.Intersects(res.Read, res.Write) {
		t.Errorf("500/501 ReadWrite = %+v, %v", res, err)
	}
}

// gridExpr returns the r×c grid with rows as read quorums:
// (1*2*…*c) + (c+1*…) + ….
func gridExpr(r, c int) *expr.Expr {
	var rows []*expr.Expr
	for i := range r {
		var row []*expr.Expr
		for j := range c {
			row = append(row, expr.Node(i*c+j))
		}
		rows = append(rows, expr.NewAnd(row...))
	}
	return expr.NewOr(rows...)
}

func TestLargeGrid(t *testing.T) {
	// 10×10 grid, rows read, one node per row written: by symmetry the
	// load at read fraction f is (10f + 10(1−f))/100 = 1/10 for every f,
	// and the 10^10 write quorums are never listed.
	s, err := New(100, gridExpr(10, 10), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range []string{"0", "1/4", "1/2", "3/4", "1"} {
		_, m := optimal(t, s, Options{Workload: Fixed(rat(fr))})
		wantRat(t, "load at "+fr, m.Load, "1/10")
	}
	// An unbalanced 4×25 grid: reads of 25, writes of 4 nodes; the load
	// is the symmetric bound (25f + 4(1−f))/100.
	s, _ = New(100, gridExpr(4, 25), nil, nil)
	_, m := optimal(t, s, Options{Workload: Fixed(rat("1/3"))})
	wantRat(t, "4×25 load", m.Load, "11/100")
}

func TestResilienceStrings(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		reads         string
		n, rres, wres int
	}{
		{"a*b*c + d*e*f", 6, 1, 2},
		{"choose(2, a, b, c, d, e)", 5, 3, 1},
		{"a", 1, 0, 0},
		{"(a + b)*(c + d)*(e + f)", 6, 1, 2},
	} {
		s, err := New(tt.n, letters(t, tt.reads), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.ReadResilience(ctx)
		w, _ := s.WriteResilience(ctx)
		if r.F != tt.rres || w.F != tt.wres {
			t.Errorf("%s: resilience %d/%d, want %d/%d", tt.reads, r.F, w.F, tt.rres, tt.wres)
		}
	}
}

func BenchmarkGrid10x10(b *testing.B) {
	s, err := New(100, gridExpr(10, 10), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	fractions := []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(3, 4), big.NewRat(1, 1)}
	b.ReportAllocs()
	for b.Loop() {
		for _, fr := range fractions {
			if _, _, err := s.Optimal(ctx, Options{Workload: Fixed(fr)}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGrid10x10LP is the 10×10 grid with unequal write capacities
// (1 and 2 in alternate columns), which the closed form does not cover: the
// linear program by column generation, at five read fractions.
func BenchmarkGrid10x10LP(b *testing.B) {
	s, err := New(100, gridExpr(10, 10), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	for v := range s.Nodes {
		s.Nodes[v].WriteCapacity = big.NewRat(int64(1+v%2), 1)
	}
	ctx := context.Background()
	fractions := []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(3, 4), big.NewRat(1, 1)}
	b.ReportAllocs()
	for b.Loop() {
		for _, fr := range fractions {
			if _, _, err := s.Optimal(ctx, Options{Workload: Fixed(fr)}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkTutorialGrid(b *testing.B) {
	s := grid(b, tutorialNodes())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Optimal(ctx, Options{Workload: Fixed(big.NewRat(1, 2))}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestClosedFormMatchesLP(t *testing.T) {
	ctx := context.Background()
	w, _ := ParseWorkload("0:1,1/3:2,1:1")
	for _, tt := range []struct {
		name  string
		reads *expr.Expr
		n     int
	}{
		{"5x5 grid", gridExpr(5, 5), 25},
		{"3x7 grid", gridExpr(7, 3), 21},
		{"majority of 9", expr.Threshold(9, 5), 9},
		{"read 3 of 8", expr.Threshold(8, 3), 8},
	} {
		s, err := New(tt.n, tt.reads, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for v := range s.Nodes {
			s.Nodes[v].WriteCapacity = big.NewRat(3, 1)
		}
		cf, ok := s.ClosedForm(Options{Workload: w})
		if !ok {
			t.Fatalf("%s: no closed form", tt.name)
		}
		_, m, err := s.Optimal(ctx, Options{Workload: w})
		if err != nil {
			t.Fatal(err)
		}
		if cf.Load.Cmp(m.Load) != 0 || cf.Capacity.Cmp(m.Capacity) != 0 {
			t.Errorf("%s: closed form load %v capacity %v, LP %v %v", tt.name, cf.Load, cf.Capacity, m.Load, m.Capacity)
		}
	}
	// Regular lists: the planes of order 2 and 3 (R = W), uniform
	// strategies over their lines.
	for _, q := range []int{2, 3} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		s, err := FromFamilies(ctx, f, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		cf, ok := s.ClosedForm(Options{Workload: w})
		if !ok {
			t.Fatalf("plane of order %d: no closed form", q)
		}
		_, m, err := s.Optimal(ctx, Options{Workload: w})
		if err != nil {
			t.Fatal(err)
		}
		if cf.Load.Cmp(m.Load) != 0 {
			t.Errorf("plane of order %d: closed form %v, LP %v", q, cf.Load, m.Load)
		}
	}
	// Order 7: 57 nodes, answered by the closed form with the uniform
	// strategy over the lines listed; load (q+1)/(q²+q+1) = 8/57.
	p7, _ := construct.ProjectivePlane(7)
	s7, _ := FromFamilies(ctx, p7, p7, nil)
	st, m, err := s7.Optimal(ctx, Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	wantRat(t, "plane of order 7", m.Load, "8/57")
	if st.Uniform || len(st.Reads) != 57 || st.Reads[0].P.Cmp(rat("1/57")) != 0 {
		t.Errorf("plane of order 7: strategy %d reads, uniform %v", len(st.Reads), st.Uniform)
	}
	// Unequal capacities or an asymmetric side: no closed form.
	s, _ := New(6, letters(t, "a*b*c + d*e"), nil, nil)
	if _, ok := s.ClosedForm(Options{Workload: w}); ok {
		t.Error("closed form for rows of unequal length")
	}
}

func TestMajority1001(t *testing.T) {
	// A read/write majority of 1,001 nodes: every quorum has 501 nodes, so
	// the load is 501/1001 at any read fraction.
	s, err := New(1001, expr.Threshold(1001, 501), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, m := optimal(t, s, Options{Workload: Fixed(rat("0.3"))})
	wantRat(t, "load", m.Load, "501/1001")
	if !st.Uniform {
		t.Error("strategy not the uniform one")
	}
	ctx := context.Background()
	r, err := s.ReadResilience(ctx)
	if err != nil || r.F != 500 {
		t.Errorf("read resilience %d, %v; want 500", r.F, err)
	}
}

func BenchmarkMajority1001(b *testing.B) {
	s, _ := New(1001, expr.Threshold(1001, 501), nil, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Optimal(ctx, Options{Workload: Fixed(big.NewRat(1, 2))}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.ReadResilience(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTutorial runs each of quoracle's tutorial computations once.
func BenchmarkTutorial(b *testing.B) {
	ctx := context.Background()
	s := grid(b, tutorialNodes())
	plain := grid(b, nil)
	w2, _ := New(5, nil, letters(b, "choose(2, a, b, c, d, e)"), tutorialNodes()[:5])
	half := Fixed(big.NewRat(1, 2))
	for _, bb := range []struct {
		name string
		run  func() error
	}{
		{"load", func() error { _, _, err := plain.Optimal(ctx, Options{Workload: Fixed(big.NewRat(1, 4))}); return err }},
		{"resilience", func() error {
			_, err := plain.ReadResilience(ctx)
			if err == nil {
				_, err = plain.WriteResilience(ctx)
			}
			return err
		}},
		{"capacities", func() error { _, _, err := s.Optimal(ctx, Options{Workload: half}); return err }},
		{"f=1", func() error { _, _, err := s.Optimal(ctx, Options{Workload: Fixed(new(big.Rat)), F: 1}); return err }},
		{"latency", func() error { _, _, err := s.Optimal(ctx, Options{Workload: half, Optimize: MinLatency}); return err }},
		{"load-within-4s", func() error {
			_, _, err := s.Optimal(ctx, Options{Workload: half, LatencyLimit: big.NewRat(4, 1)})
			return err
		}},
		{"write2-f=1", func() error { _, _, err := w2.Optimal(ctx, Options{Workload: Fixed(new(big.Rat)), F: 1}); return err }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if err := bb.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarginalsMatchColumns solves grids with unequal capacities both by
// node marginals (the write side, a product of rows) and by quorum columns,
// and checks the optimum and the strategy's marginals.
func TestMarginalsMatchColumns(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct{ r, c int }{{2, 3}, {3, 3}, {3, 4}, {4, 2}} {
		s, err := New(tt.r*tt.c, gridExpr(tt.r, tt.c), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for v := range s.Nodes {
			s.Nodes[v].WriteCapacity = big.NewRat(int64(1+(v*7)%3), 1)
			s.Nodes[v].ReadCapacity = big.NewRat(int64(2+(v*5)%4), 1)
		}
		for _, o := range []Options{
			{Workload: Fixed(rat("1/3"))},
			{Workload: Fixed(rat("0"))},
			{Workload: Fixed(rat("3/4")), Optimize: MinNetwork, LoadLimit: rat("2/3")},
		} {
			st, m, err := s.Optimal(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			o.noMarginals = true
			_, m2, err := s.Optimal(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if m.Load.Cmp(m2.Load) != 0 || m.Network.Cmp(m2.Network) != 0 {
				t.Errorf("%d×%d %+v: marginals load %v network %v, columns %v %v", tt.r, tt.c, o, m.Load, m.Network, m2.Load, m2.Network)
			}
			if len(st.Writes) > tt.r*tt.c-tt.r+1 {
				t.Errorf("%d×%d: %d write quorums, more than the split allows", tt.r, tt.c, len(st.Writes))
			}
			for _, c := range st.Writes {
				if !s.Writes.IsQuorum(c.Quorum) || c.Quorum.Len() != tt.r {
					t.Errorf("%v is not one node per row", c.Quorum)
				}
			}
		}
	}
}

// BenchmarkGrid32x32LP is the 32×32 grid (1,024 nodes) with unequal write
// capacities: node marginals for the writes, columns for the rows.
func BenchmarkGrid32x32LP(b *testing.B) {
	s, err := New(1024, gridExpr(32, 32), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	for v := range s.Nodes {
		s.Nodes[v].WriteCapacity = big.NewRat(int64(1+v%2), 1)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Optimal(ctx, Options{Workload: Fixed(big.NewRat(1, 2))}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDualOfListByMMCS(t *testing.T) {
	// The Fano plane written as a sum of products: its dual is listed by
	// MMCS — the seven lines again (a projective plane is self-blocking).
	fano := letters(t, "a*b*c + a*d*e + a*f*g + b*d*f + b*e*g + c*d*g + c*e*f")
	s, err := New(7, fano, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Writes.List == nil || len(s.Writes.List.Quorums) != 7 {
		t.Fatalf("writes %v, want the 7 lines", s.Writes.List)
	}
	for i := range s.Writes.List.Quorums {
		if q := &s.Writes.List.Quorums[i]; q.Len() != 3 || !s.Reads.IsQuorum(q) {
			t.Errorf("write quorum %v is not a line", q)
		}
	}
	_, m := optimal(t, s, Options{Workload: Fixed(rat("1/2"))})
	wantRat(t, "Fano load", m.Load, "3/7")
}
