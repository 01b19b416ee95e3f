package availability

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// The diagram of a threshold written out over part of the universe has
// the polynomial the general construction finds on the same list, and the
// probability the polynomial gives; it is reduced (no node with equal
// children) and has at most w·(u−w+1) nodes.
func TestThresholdBDD(t *testing.T) {
	sup := []int{0, 2, 3, 6, 7, 9}
	for w := 1; w <= len(sup); w++ {
		f := set.NewFamily(11)
		var rec func(start int, cur []int)
		rec = func(start int, cur []int) {
			if len(cur) == w {
				f.Add(set.Of(cur...), set.NoOwner)
				return
			}
			for i := start; i < len(sup); i++ {
				rec(i+1, append(cur, sup[i]))
			}
		}
		rec(0, nil)
		d := thresholdBDD(f.N, sup, w)
		if inner := d.Size() - 2; inner > w*(len(sup)-w+1) {
			t.Errorf("w=%d: %d nodes", w, inner)
		}
		for i := 2; i < d.Size(); i++ {
			if d.nodes[i].lo == d.nodes[i].hi || d.nodes[i].lo >= uint32(i) || d.nodes[i].hi >= uint32(i) {
				t.Fatalf("w=%d: node %d %+v", w, i, d.nodes[i])
			}
		}
		got, err := d.Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		general, _, _, err := buildBDD(context.Background(), f, BDDOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := general.Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("w=%d: %v, want %v", w, got, want)
		}
		p := make([]float64, f.N)
		for v := range p {
			p[v] = 0.1 + 0.07*float64(v)
		}
		if a, b := d.Probability(p), general.Probability(p); a-b > 1e-12 || b-a > 1e-12 {
			t.Fatalf("w=%d: probability %v, want %v", w, a, b)
		}
	}
}
