package availability

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/coterie-dev/coterie/shard"
)

// sumCounts adds count vectors.
func sumCounts(n int, parts ...[]*big.Int) []*big.Int {
	sum := make([]*big.Int, n+1)
	for i := range sum {
		sum[i] = new(big.Int)
	}
	for _, p := range parts {
		for i, v := range p {
			sum[i].Add(sum[i], v)
		}
	}
	return sum
}

// The pieces of the plane sweep add up to the whole count however they
// are dealt out among shards, and the split is real: for q ≥ 4 no piece
// holds the whole count alone.
func TestPlanePieces(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{2, 3, 4, 5} {
		n := q*q + q + 1
		want, err := PlanePolynomial(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, of := range []int{1, 2, 4, 8} {
			all := make([]int, of)
			for j := range all {
				all[j] = j
			}
			// All pieces in one run, and one run per piece (shards of one).
			together, err := PlanePieces(ctx, q, of, all, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var apart [][]*big.Int
			for j := range of {
				c, err := PlanePieces(ctx, q, of, []int{j}, nil, 0)
				if err != nil {
					t.Fatal(err)
				}
				apart = append(apart, c[0])
			}
			nonzero := 0
			for j := range of {
				if fmt.Sprint(together[j]) != fmt.Sprint(apart[j]) {
					t.Errorf("PG(2,%d) piece %d of %d: together and apart differ", q, j, of)
				}
				if anyNonzero(apart[j]) {
					nonzero++
				}
			}
			if q >= 4 && of >= 2 && nonzero < 2 {
				t.Errorf("PG(2,%d), %d pieces: only %d hold counts", q, of, nonzero)
			}
			got, err := PlaneFromPieces(q, sumCounts(n, apart...))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("PG(2,%d) from %d pieces:\n got %v\nwant %v", q, of, got, want)
			}
		}
	}
}

func anyNonzero(v []*big.Int) bool {
	for _, x := range v {
		if x.Sign() != 0 {
			return true
		}
	}
	return false
}

// Sums that no pieces give are refused: a piece left out, a count
// changed, the wrong length, the wrong order.
func TestPlaneFromPiecesRefuses(t *testing.T) {
	ctx := context.Background()
	q, n := 5, 31
	pieces, err := PlanePieces(ctx, q, 4, []int{0, 1, 2, 3}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlaneFromPieces(q, sumCounts(n, pieces...)); err != nil {
		t.Fatal(err)
	}
	bad := sumCounts(n, pieces...)
	bad[7].Add(bad[7], big.NewInt(1))
	if _, err := PlaneFromPieces(q, bad); err == nil {
		t.Error("a count changed by one was taken")
	}
	if _, err := PlaneFromPieces(q, sumCounts(n, pieces...)[:n]); err == nil {
		t.Error("a short vector was taken")
	}
	if _, err := PlaneFromPieces(4, sumCounts(n, pieces...)); err == nil {
		t.Error("PG(2,5)'s counts were taken as PG(2,4)'s")
	}
	for _, of := range []int{0, 3, 2048} {
		if _, err := PlanePieces(ctx, q, of, []int{0}, nil, 0); err == nil {
			t.Errorf("%d pieces were taken", of)
		}
	}
	if _, err := PlanePieces(ctx, q, 4, []int{4}, nil, 0); err == nil {
		t.Error("piece 4 of 4 was taken")
	}
	// A piece missing: the sum is not the whole (the sweep's pieces are
	// all needed, so a merge must check that it has them all).
	if p, err := PlaneFromPieces(q, sumCounts(n, pieces[:3]...)); err == nil {
		want, _ := PlanePolynomial(ctx, q, nil)
		if p.Equal(want) {
			t.Error("three pieces of four gave the whole polynomial")
		}
	}
}

// PG(2,7) in four pieces equals the stored polynomial (COTERIE_LONG=1:
// each piece sweeps the first rows again).
func TestPG7Pieces(t *testing.T) {
	if os.Getenv("COTERIE_LONG") == "" {
		t.Skip("set COTERIE_LONG=1 to recompute PG(2,7) in pieces (minutes)")
	}
	ctx := context.Background()
	var parts [][]*big.Int
	for _, which := range [][]int{{0, 2}, {1}, {3}} {
		c, err := PlanePieces(ctx, 7, 4, which, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, c...)
	}
	p, err := PlaneFromPieces(7, sumCounts(57, parts...))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(pg7Golden(t)) {
		t.Errorf("PG(2,7) from pieces: %v", p)
	}
}

// Shares of the plane sweep (as ComputeShare makes them for order 8)
// merge into the unsplit polynomial for 1, 2 and 3 shards; a changed
// count or a missing shard is refused.
func TestPlaneShares(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{4, 5} {
		f := projectivePlane(t, q)
		want, err := PlanePolynomial(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 3; n++ {
			var shares []*Share
			for i := 1; i <= n; i++ {
				sh, err := planeShare(ctx, f, shard.Spec{Index: i, Count: n}, &ShareOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !sh.Exact || sh.Kind != SharePieces || sh.Method != MethodPlane {
					t.Fatalf("PG(2,%d) shard %d/%d: %+v", q, i, n, sh)
				}
				shares = append(shares, sh)
			}
			res, _, err := MergeShares(ctx, shares, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || res.Method != MethodPlane || !res.Poly.Equal(want) {
				t.Errorf("PG(2,%d) merged from %d shards: %v by %s", q, n, res.Poly, res.Method)
			}
			if n < 2 {
				continue
			}
			if _, _, err := MergeShares(ctx, shares[1:], nil); err == nil {
				t.Errorf("PG(2,%d): %d shards of %d merged", q, n-1, n)
			}
			bad := *shares[n-1]
			bad.Poly = shares[n-1].Poly.Clone()
			bad.Poly.A[3].Add(bad.Poly.A[3], big.NewInt(1))
			if _, _, err := MergeShares(ctx, append(shares[:n-1:n-1], &bad), nil); err == nil {
				t.Errorf("PG(2,%d): a changed count merged", q)
			}
		}
	}
}
