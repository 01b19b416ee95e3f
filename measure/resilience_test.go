package measure

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestResilienceByHand(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *set.Family
		want int
	}{
		{"Fano plane", fano(), 2},                    // a line meets every line; no two points do
		{"majority of 5", set.NewThreshold(5, 3), 2}, // 3 failures kill every 3-subset
		{"3×3 grid", grid(3, 3), 2},                  // a full row meets every row ∪ column
		{"4×4 grid", grid(4, 4), 3},
		{"wheel of 6", wheel(6), 1}, // the hub and one rim node
	} {
		r, err := ResilienceOf(context.Background(), tt.f)
		if err != nil {
			t.Fatal(err)
		}
		if r.F != tt.want {
			t.Errorf("%s: resilience %d, want %d", tt.name, r.F, tt.want)
		}
		if !tt.f.IsThreshold() {
			for i := range tt.f.Quorums {
				if !set.Intersects(r.Witness, &tt.f.Quorums[i]) {
					t.Errorf("%s: witness %v misses quorum %d", tt.name, r.Witness, i+1)
				}
			}
		}
	}
}

// The engine agrees with brute force over all subsets of nodes on random
// small systems.
func TestResilienceBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		n := 2 + r.IntN(11)
		f := set.NewFamily(n)
		masks := []uint32{}
		for range 1 + r.IntN(12) {
			var m uint32
			for m == 0 {
				m = uint32(r.IntN(1 << n))
			}
			masks = append(masks, m)
			q := set.New(n)
			for v := range n {
				if m>>v&1 == 1 {
					q.Add(v)
				}
			}
			f.Add(q, set.NoOwner)
		}
		best := n + 1
		for dead := uint32(0); dead < 1<<n; dead++ {
			all := true
			for _, m := range masks {
				if m&dead == 0 {
					all = false
					break
				}
			}
			if all {
				best = min(best, bits.OnesCount32(dead))
			}
		}
		res, err := ResilienceOf(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if res.F != best-1 {
			t.Fatalf("%v: resilience %d, brute force %d", f, res.F, best-1)
		}
	}
}
