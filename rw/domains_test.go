package rw

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// bruteRW sums the probabilities of the node × domain states in which a
// read quorum, a write quorum, and both are up.
func bruteRW(s *System, t *domain.Tree, p []*big.Rat) (r, w, both *big.Rat) {
	probs := append([]*big.Rat(nil), p...)
	for d := range t.Len() {
		probs = append(probs, t.P(d))
	}
	one := big.NewRat(1, 1)
	r, w, both = new(big.Rat), new(big.Rat), new(big.Rat)
	for st := 0; st < 1<<len(probs); st++ {
		wt := big.NewRat(1, 1)
		for i, x := range probs {
			if st>>i&1 == 1 {
				wt.Mul(wt, x)
			} else {
				wt.Mul(wt, new(big.Rat).Sub(one, x))
			}
		}
		live := set.New(s.N)
		for v := range s.N {
			up := st>>v&1 == 1
			for _, d := range t.Above(v) {
				up = up && st>>(s.N+d)&1 == 1
			}
			if up {
				live.Add(v)
			}
		}
		hr, hw := s.Reads.IsQuorum(live), s.Writes.IsQuorum(live)
		if hr {
			r.Add(r, wt)
		}
		if hw {
			w.Add(w, wt)
		}
		if hr && hw {
			both.Add(both, wt)
		}
	}
	return r, w, both
}

func TestDomainEvaluatorBrute(t *testing.T) {
	bind := func(src string) *expr.Expr {
		e, err := expr.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		e, err = e.Bind(func(name string) (int, error) {
			var v int
			_, err := fmt.Sscan(name, &v)
			return v - 1, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tt := range []struct{ reads, writes string }{
		{"choose(2, 1, 2, 3, 4, 5, 6, 7, 8, 9)", "choose(8, 1, 2, 3, 4, 5, 6, 7, 8, 9)"},
		{"1*2*3 + 4*5*6 + 7*8*9", "(1 + 2 + 3)*(4 + 5 + 6)*(7 + 8 + 9)"},
		{"choose(2, 1, 2, 3)", "choose(2, 1, 2, 3)*(4 + 5 + 6 + 7 + 8 + 9)"},
		{"choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))", ""},
		// Weighted votes (a node repeated for its weight): one
		// generating function for both sides, or one per side.
		{"choose(7, 1, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9)", ""},
		{"choose(7, 1, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9)", "choose(7, 1, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9)"},
		{"choose(4, 1, 1, 2, 5, 5, 9)", "choose(3, 1, 1, 2, 5, 5, 9)*(3 + 4 + 6 + 7 + 8)"},
		{"1*1*2*3*4*5*6*7*8*9", "1 + 2 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9"},
		// One formula on both sides.
		{"1*2*3 + 4*5*6 + 7*8*9", "1*2*3 + 4*5*6 + 7*8*9"},
	} {
		t.Run(tt.reads, func(t *testing.T) {
			var we *expr.Expr
			if tt.writes != "" {
				we = bind(tt.writes)
			}
			s, err := New(9, bind(tt.reads), we, nil)
			if err != nil {
				t.Fatal(err)
			}
			tr := domain.New(9)
			for v := range 9 {
				path := fmt.Sprintf("z%d", v/3)
				if v == 4 || v == 8 {
					path += "/r"
				}
				_ = tr.Place(v, path)
			}
			for path, p := range map[string]*big.Rat{"z0": big.NewRat(9, 10), "z1": big.NewRat(99, 100), "z2/r": big.NewRat(1, 2)} {
				d, _ := tr.Lookup(path)
				_ = tr.SetP(d, p)
			}
			p := make([]*big.Rat, 9)
			for v := range p {
				p[v] = big.NewRat(int64(80+v), 100)
			}
			ev, err := NewDomainEvaluator(context.Background(), s, tr, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			r, w, both, err := ev.At(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			br, bw, bb := bruteRW(s, tr, p)
			if r.Cmp(br) != 0 || w.Cmp(bw) != 0 || both.Cmp(bb) != 0 {
				t.Fatalf("%s: reads %s writes %s both %s; brute force %s %s %s", ev.Method,
					r.FloatString(9), w.FloatString(9), both.FloatString(9), br.FloatString(9), bw.FloatString(9), bb.FloatString(9))
			}
		})
	}
}

// TestWorkedExample is the example of docs/domains.md: 9 nodes in 3
// zones (nodes 1–3, 4–6, 7–9), nodes up with p = 0.99 and zones with
// 0.999. The figures the docs print are those of brute force over the
// 2^12 states, and the evaluator gives exactly the same numbers.
func TestWorkedExample(t *testing.T) {
	tr := domain.New(9)
	for v := range 9 {
		_ = tr.Place(v, fmt.Sprintf("zone-%c", 'a'+v/3))
	}
	for d := range tr.Len() {
		_ = tr.SetP(d, big.NewRat(999, 1000))
	}
	p := make([]*big.Rat, 9)
	for v := range p {
		p[v] = big.NewRat(99, 100)
	}
	bind := func(src string) *expr.Expr {
		e, _ := expr.Parse(src)
		e, err := e.Bind(func(name string) (int, error) {
			var v int
			_, err := fmt.Sscan(name, &v)
			return v - 1, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tt := range []struct{ name, src, av, u string }{
		{"majority", "choose(5, 1, 2, 3, 4, 5, 6, 7, 8, 9)", "0.9999926173", "0.0000073827"},
		{"hqc", "choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))", "0.9999949523", "0.0000050477"},
		{"grid", "(1*2*3 + 4*5*6 + 7*8*9)*(1*4*7 + 2*5*8 + 3*6*9)", "0.9969568219", "0.0030431781"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := bind(tt.src)
			s, err := New(9, e, e, nil)
			if err != nil {
				t.Fatal(err)
			}
			br, _, bb := bruteRW(s, tr, p)
			if br.Cmp(bb) != 0 {
				t.Fatalf("a coterie: reads %s but both %s", br.FloatString(12), bb.FloatString(12))
			}
			if got := br.FloatString(10); got != tt.av {
				t.Errorf("brute force AV = %s, the docs say %s", got, tt.av)
			}
			if got := new(big.Rat).Sub(big.NewRat(1, 1), br).FloatString(10); got != tt.u {
				t.Errorf("brute force 1 − AV = %s, the docs say %s", got, tt.u)
			}
			ev, err := NewDomainEvaluator(context.Background(), s, tr, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			r, w, both, err := ev.At(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if r.Cmp(br) != 0 || w.Cmp(br) != 0 || both.Cmp(br) != 0 {
				t.Errorf("%s: %s %s %s, brute force %s", ev.Method, r.FloatString(12), w.FloatString(12), both.FloatString(12), br.FloatString(12))
			}
		})
	}
}
