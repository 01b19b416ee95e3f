package measure

import (
	"context"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A threshold family's load, w/n from its typed form (a
// quorum.Thresholder), is the linear program's optimum on the same
// quorums written out, lies within the game's bounds on them, and is what
// ClosedFormLoad gives; for every w-of-n with n ≤ 7.
func TestThresholdLoadAgreesWithList(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 7; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			g, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			got, err := LoadOf(ctx, f, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lp, err := lpLoad(ctx, g, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Method != MethodThreshold || lp.Exact == nil || got.Exact.Cmp(lp.Exact) != 0 ||
				got.NetworkLoadExact.Cmp(big.NewRat(int64(w), 1)) != 0 {
				t.Errorf("%d-of-%d: load %v (%s, network %v), the LP on the list %v", w, n, got.Exact, got.Method, got.NetworkLoadExact, lp.Exact)
			}
			cf, ok := ClosedFormLoad(f)
			if !ok || cf.Method != MethodThreshold || cf.Exact.Cmp(got.Exact) != 0 {
				t.Errorf("%d-of-%d: ClosedFormLoad %+v, %v; LoadOf %v", w, n, cf, ok, got.Exact)
			}
			lo, hi, err := LoadBounds(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			glo, ghi, err := LoadBounds(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if lo.Cmp(lp.Exact) != 0 || hi.Cmp(lp.Exact) != 0 || glo.Cmp(lp.Exact) > 0 || ghi.Cmp(lp.Exact) < 0 {
				t.Errorf("%d-of-%d: bounds %v..%v, on the list %v..%v, LP %v", w, n, lo, hi, glo, ghi, lp.Exact)
			}
		}
	}
	if _, ok := ClosedFormLoad(mustEnumerate(t, set.NewThreshold(5, 3))); ok {
		t.Error("ClosedFormLoad answered for a list")
	}
}

func mustEnumerate(t *testing.T, f *set.Family) *set.Family {
	t.Helper()
	g, err := f.Enumerate(1 << 10)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
