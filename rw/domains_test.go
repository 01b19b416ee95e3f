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
