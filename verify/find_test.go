package verify

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
)

func TestFindDisjointAgreesWithBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	found := 0
	for it := range iters {
		n := 1 + r.IntN(12)
		m := 1 + r.IntN(14)
		p := 0.3 + 0.65*r.Float64()
		f := testsys.Family(r, n, m, p)
		tt := 1 + r.IntN(6)
		got, err := FindDisjoint(ctx, f, tt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := bruteDisjoint(ctx, f, tt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if (got == nil) != (want == nil) {
			t.Fatalf("#%d %v t=%d: search %v, brute %v", it, f, tt, got, want)
		}
		if got != nil {
			found++
			checkDisjointWitness(t, f, tt, got)
			checkDisjointWitness(t, f, tt, want)
		}
	}
	// Both verdicts must be exercised for the comparison to mean anything.
	if found < iters/10 || found > iters*9/10 {
		t.Errorf("%d of %d random systems failed; the generator is lopsided", found, iters)
	}
}
