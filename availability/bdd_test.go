package availability

import (
	"context"
	"math/rand/v2"
	"testing"
)

// The BDD count agrees with brute force on random families, with every
// candidate order.
func TestBDDMatchesBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	for it := range 300 {
		n := 1 + r.IntN(20)
		f := randomFamily(r, n, 1+r.IntN(12), 0.1+0.5*r.Float64())
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range OrderCandidates(f) {
			b, err := BuildBDD(ctx, f, BDDOptions{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("case %d: %v\nBDD   %v\nbrute %v", it, f, got, want)
			}
		}
	}
}
