package availability

import (
	"context"
	"math/rand/v2"
	"testing"
)

// The plane sweep agrees with brute force (q = 2, 3) and the BDD (q = 5).
func TestPlanePolynomial(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{2, 3, 5} {
		f := projectivePlane(t, q)
		if got, ok := planeOrder(f); !ok || got != q {
			t.Fatalf("planeOrder(PG(2,%d)) = %d, %v", q, got, ok)
		}
		got, err := PlanePolynomial(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want *Polynomial
		if f.N <= 20 {
			want, err = Brute(ctx, f)
		} else {
			var b *BDD
			b, err = BuildBDD(ctx, f, BDDOptions{})
			if err == nil {
				want, err = b.Count(ctx)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Errorf("PG(2,%d):\nsweep %v\nwant  %v", q, got, want)
		}
	}
}

// The pruned canonical form is the largest image over all q²(q−1) maps,
// computed naively here, for sparse and dense states.
func TestPlaneCanon(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, q := range []int{3, 5, 7} {
		s := newPlaneSweep(q)
		for it := range 3000 {
			var x uint64
			d := r.Float64()
			if it%3 == 0 {
				d /= 8
			}
			for b := range q * q {
				if r.Float64() < d {
					x |= 1 << b
				}
			}
			want := uint64(0)
			for l := 1; l < q; l++ {
				for c := range q {
					for sh := range q {
						var img uint64
						for b := range q * q {
							if x>>b&1 == 1 {
								m, a := b/q, b%q
								img |= 1 << (((l*m+c)%q)*q + (l*a+sh)%q)
							}
						}
						want = max(want, img)
					}
				}
			}
			if got := s.canon(x); got != want {
				t.Fatalf("q=%d: canon(%#x) = %#x, want %#x", q, x, got, want)
			}
		}
	}
}
