package availability

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
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

// The top-down construction and apply make the same reduced diagram (the
// same size under the same order) and the same count as brute force, on
// random families, the constructions' families and every candidate order.
func TestBDDTopDownMatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	ctx := context.Background()
	var fs []*set.Family
	for range 200 {
		n := 1 + r.IntN(18)
		fs = append(fs, randomFamily(r, n, 1+r.IntN(40), 0.05+0.6*r.Float64()))
	}
	fs = append(fs, grid(4, 5), cube(2, 3), projectivePlane(t, 3), ok[*set.Family](t)(construct.Billiard(7)))
	for it, f := range fs {
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range OrderCandidates(f) {
			td, err := BuildBDD(ctx, f, BDDOptions{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			ap, err := BuildBDD(ctx, f, BDDOptions{Order: order, apply: true})
			if err != nil {
				t.Fatal(err)
			}
			if td.Size() != ap.Size() {
				t.Fatalf("case %d: %v: top-down %d nodes, apply %d", it, f, td.Size(), ap.Size())
			}
			for _, d := range []*BDD{td, ap} {
				got, err := d.Count(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("case %d: %v\nBDD   %v\nbrute %v", it, f, got, want)
				}
			}
		}
	}
}

// Both counting passes, in the order of the arena and level by level,
// agree with brute force.
func TestBDDCountPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	ctx := context.Background()
	fs := []*set.Family{grid(4, 4), cube(2, 2), projectivePlane(t, 3)}
	for range 100 {
		n := 1 + r.IntN(18)
		fs = append(fs, randomFamily(r, n, 1+r.IntN(20), 0.05+0.6*r.Float64()))
	}
	for it, f := range fs {
		want, err := Brute(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, apply := range []bool{false, true} {
			d, err := BuildBDD(ctx, f, BDDOptions{apply: apply})
			if err != nil {
				t.Fatal(err)
			}
			for _, byLevel := range []bool{false, true} {
				c := counter{n: f.N, w: countWords(f.N), byLevel: byLevel}
				got, err := c.run(ctx, d)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Fatalf("case %d (apply %v, by level %v): %v\nBDD   %v\nbrute %v", it, apply, byLevel, f, got, want)
				}
			}
		}
	}
}
