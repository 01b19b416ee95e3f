package set_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Binomial agrees with big.Int.Binomial (the product formula) on both
// sides of the switch to prime powers, and with Pascal's rule.
func TestBinomial(t *testing.T) {
	for _, tt := range [][2]int{{0, 0}, {5, -1}, {5, 6}, {10, 3}, {64, 63}, {200, 64}, {200, 100}, {1000, 501}, {4099, 2048}, {5000, 4999}} {
		n, k := tt[0], tt[1]
		want := new(big.Int)
		if k >= 0 && k <= n {
			want.Binomial(int64(n), int64(k))
		}
		if got := set.Binomial(n, k); got.Cmp(want) != 0 {
			t.Errorf("Binomial(%d, %d) = %v, want %v", n, k, got, want)
		}
	}
	// C(n, k) = C(n−1, k−1) + C(n−1, k) across the whole row of n = 300.
	for k := 1; k < 300; k++ {
		sum := new(big.Int).Add(set.Binomial(299, k-1), set.Binomial(299, k))
		if got := set.Binomial(300, k); got.Cmp(sum) != 0 {
			t.Fatalf("C(300, %d) is not C(299, %d) + C(299, %d)", k, k-1, k)
		}
	}
}

func TestBinomialContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c, err := set.BinomialContext(ctx, 1000000, 500001); c != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("BinomialContext on a cancelled context = %v, %v; want nil, context.Canceled", c != nil, err)
	}
	// C(10^6, 5·10^5+1) has 999990 bits (log2 by Stirling: 10^6 − ½log2(π·5·10^5) ≈ 999990.3).
	if c := set.Binomial(1000000, 500001); c.BitLen() != 999990 {
		t.Errorf("C(10^6, 500001) has %d bits, want 999990", c.BitLen())
	}
}
