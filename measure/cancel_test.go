package measure

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"gonum.org/v1/gonum/mat"
)

// gonum's simplex method, which takes no context, is stopped through the
// matrix it reads: cancelled at the third look, simplex returns
// context.Canceled and reads no more; left alone, it solves the LP as
// gonum does. The LP: minimise Σx subject to Ax = A·1 over 60 rows and
// 200 columns of integers 1..97 drawn by a fixed linear congruential
// generator, feasible at x = 1.
func TestSimplexStops(t *testing.T) {
	const m, n = 60, 200
	A := mat.NewDense(m, n, nil)
	b := make([]float64, m)
	x := uint32(1)
	for i := range m {
		for j := range n {
			x = x*1664525 + 1013904223 // Numerical Recipes' generator
			v := float64(1 + (x>>16)%97)
			A.Set(i, j, v)
			b[i] += v
		}
	}
	c := make([]float64, n)
	for j := range c {
		c[j] = 1
	}
	all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
	opt, _, err := simplex(all, c, A, b)
	if err != nil {
		t.Fatal(err)
	}
	if all.Calls < 8 {
		t.Fatalf("simplex looks at its context %d times; the test needs a larger LP", all.Calls)
	}
	want, _, err := simplex(context.Background(), c, A, b)
	if err != nil || want != opt {
		t.Errorf("optimum %v with a context that never ends, %v (%v) with none", opt, want, err)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 2}
	if _, _, err := simplex(stop, c, A, b); !errors.Is(err, context.Canceled) || stop.Calls != 3 {
		t.Errorf("cancelled at the third look: %v after %d looks (of %d)", err, stop.Calls, all.Calls)
	}
}
