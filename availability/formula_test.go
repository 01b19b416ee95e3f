package availability

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
)

func bindIDs(t testing.TB, src string) *expr.Expr {
	t.Helper()
	e, err := expr.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	e, err = e.Bind(func(name string) (int, error) {
		v, err := strconv.Atoi(name)
		return v - 1, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLiftedFormulaBrute: the BDD made from the formula gives exactly
// the availability of brute force over node × domain states, and of the
// lifted BDD of the listed quorums.
func TestLiftedFormulaBrute(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(9, 9))
	for _, src := range []string{
		"choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))",
		"(1*2*3 + 4*5*6 + 7*8*9)*(1*4*7 + 2*5*8 + 3*6*9)",
		"choose(3, 1 + 2, 3*4, 5, choose(2, 6, 7, 8), 9)",
		"1*2 + 2*3 + 3*4 + 4*5 + 5*6 + 6*7 + 7*8 + 8*9 + 9*1",
	} {
		e := bindIDs(t, src)
		n := e.MaxNode() + 1
		tr := domain.New(n)
		for v := range n {
			path := fmt.Sprintf("z%d", r.IntN(3))
			if r.IntN(2) == 0 {
				path += "/r"
			}
			_ = tr.Place(v, path)
		}
		for d := range tr.Len() {
			_ = tr.SetP(d, big.NewRat(int64(80+r.IntN(20)), 100))
		}
		m := UniformModel(n, rat("0.9"), tr)
		m.P[2] = rat("1/3")
		f, ok := e.Family(n, 0)
		if !ok {
			t.Fatal("cannot list")
		}
		want := bruteDomains(f, m)
		var vars []int
		for d := range tr.Len() {
			vars = append(vars, d)
		}
		l, err := NewLiftedFormula(ctx, e, n, tr, vars, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.At(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("%s: formula BDD %s, brute force %s", src, got.FloatString(12), want.FloatString(12))
		}
		listed, err := LiftedAvailability(ctx, f, m, 0)
		if err != nil || listed.Cmp(want) != 0 {
			t.Fatalf("%s: listed %v (%v), brute force %s", src, listed, err, want.FloatString(12))
		}
	}
}

// hqc300 is the expression of BenchmarkDomainHQC300.
func hqc300(b testing.TB) *expr.Expr {
	var regions []string
	for g := range 3 {
		var zones []string
		for z := range 3 {
			var racks []string
			for k := range 4 {
				rack := g*12 + z*4 + k
				var ids []string
				for v := rack; v < 300; v += 36 {
					ids = append(ids, strconv.Itoa(v+1))
				}
				racks = append(racks, fmt.Sprintf("choose(%d, %s)", len(ids)/2+1, joinComma(ids)))
			}
			zones = append(zones, "choose(3, "+joinComma(racks)+")")
		}
		regions = append(regions, "choose(2, "+joinComma(zones)+")")
	}
	return bindIDs(b, "choose(2, "+joinComma(regions)+")")
}

// BenchmarkDomainKillHQC300: the smallest killing set of regions, zones
// and racks of the hierarchical system of BenchmarkDomainHQC300, from its
// formula's BDD over each level's domains.
func BenchmarkDomainKillHQC300(b *testing.B) {
	tr := tree300(b)
	e := hqc300(b)
	for b.Loop() {
		for l := 1; l <= 3; l++ {
			if _, ok, err := DomainKill(context.Background(), e, 300, tr, tr.AtLevel(l), 0); err != nil || !ok {
				b.Fatal(err, ok)
			}
		}
	}
}

// BenchmarkDomainHQC300: hierarchical quorum consensus along tree300's
// own shape — majority of 3 regions, of 3 zones each, of 4 racks each, of
// the 8 or 9 nodes of each rack — at p = 0.999, by the formula BDD.
func BenchmarkDomainHQC300(b *testing.B) {
	tr := tree300(b)
	var regions []string
	for g := range 3 {
		var zones []string
		for z := range 3 {
			var racks []string
			for k := range 4 {
				rack := g*12 + z*4 + k
				var ids []string
				for v := rack; v < 300; v += 36 {
					ids = append(ids, strconv.Itoa(v+1))
				}
				racks = append(racks, fmt.Sprintf("choose(%d, %s)", len(ids)/2+1, joinComma(ids)))
			}
			zones = append(zones, "choose(3, "+joinComma(racks)+")")
		}
		regions = append(regions, "choose(2, "+joinComma(zones)+")")
	}
	e := bindIDs(b, "choose(2, "+joinComma(regions)+")")
	m := UniformModel(300, rat("0.999"), tr)
	var vars []int
	for d := range tr.Len() {
		vars = append(vars, d)
	}
	for b.Loop() {
		l, err := NewLiftedFormula(context.Background(), e, 300, tr, vars, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.At(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

func joinComma(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
