package expr_test

import (
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// CoefficientsOver counts, for each i, the i-subsets of all n nodes that
// hold a quorum: against brute force over all 2^n subsets, with nodes the
// formula does not use.
func TestCoefficientsOverBruteForce(t *testing.T) {
	for _, tt := range []struct {
		formula string
		n       int
	}{
		{"a*b*c + d*e*f", 6},
		{"a*b*c + d*e*f", 8},
		{"choose(2, a, b*c, d)", 7},
		{"a", 3},
	} {
		e, err := expr.Parse(tt.formula)
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil }); err != nil {
			t.Fatal(err)
		}
		want := make([]int64, tt.n+1)
		for m := range 1 << tt.n {
			s := set.New(tt.n)
			for v := range tt.n {
				if m&(1<<v) != 0 {
					s.Add(v)
				}
			}
			if e.IsQuorum(s) {
				want[s.Len()]++
			}
		}
		got := e.CoefficientsOver(tt.n)
		if len(got) != tt.n+1 {
			t.Fatalf("%s over %d: %d coefficients", tt.formula, tt.n, len(got))
		}
		for i := range want {
			if got[i].Int64() != want[i] {
				t.Errorf("%s over %d: A[%d] = %s, brute force %d", tt.formula, tt.n, i, got[i], want[i])
			}
		}
	}
}

// Relabel names the leaves and keeps the nodes: the relabelled formula
// has the same quorums.
func TestRelabel(t *testing.T) {
	e, err := expr.Parse("a*b + choose(2, a, c, d)")
	if err != nil {
		t.Fatal(err)
	}
	if e, err = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil }); err != nil {
		t.Fatal(err)
	}
	r := e.Relabel([]string{"n1", "n2", "n3", "n4"})
	if got, want := r.String(), "n1*n2 + choose(2, n1, n3, n4)"; got != want {
		t.Errorf("Relabel: %s, want %s", got, want)
	}
	if e.String() != "a*b + choose(2, a, c, d)" {
		t.Errorf("e changed: %s", e)
	}
	for m := range 1 << 4 {
		s := set.New(4)
		for v := range 4 {
			if m&(1<<v) != 0 {
				s.Add(v)
			}
		}
		if e.IsQuorum(s) != r.IsQuorum(s) {
			t.Errorf("%v: a quorum of one and not the other", s)
		}
	}
}
