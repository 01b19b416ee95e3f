package availability

import (
	"context"
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
