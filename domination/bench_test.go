package domination

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// go test ./domination -run '^$' -bench 'Decide'
func BenchmarkDecide(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
	}{{"PG(2,31)", pg(b, 31)}, {"PG(2,64)", pg(b, 64)}, {"grid32x32", grid(32, 32)}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Decide(context.Background(), bb.f)
				if err != nil || r.Nondominated {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// go test ./domination -run '^$' -bench 'DecideList'
//
// All 11-subsets of 21 nodes as an explicit list (352,716 quorums,
// nondominated), recognised and decided by counting; the same list less
// one subset (dominated), decided by the table of every subset; and all
// 11-subsets of 20 (dominated). Each checks its verdict.
func BenchmarkDecideList(b *testing.B) {
	near := uniform(b, 21, 11, 1)
	near.Quorums = near.Quorums[1:]
	for _, bb := range []struct {
		name string
		f    *set.Family
		dom  bool
	}{{"11of21", uniform(b, 21, 11, 1), false}, {"11of21-less-one", near, true}, {"11of20", uniform(b, 20, 11, 1), true}} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				r, err := Decide(context.Background(), bb.f)
				if err != nil || r.Nondominated == bb.dom {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// go test ./domination -run '^$' -bench 'DecideSmallest' -benchtime 20x
//
// The smallest witnesses of PG(2,q), q ≤ 9, proved minimum (the planes as
// construct builds them); the Hall plane of order 9, which gets no
// symmetry; and small planes with the geometry off, the plain solver path.
func BenchmarkDecideSmallest(b *testing.B) {
	for _, q := range []int{3, 4, 5, 7, 8, 9} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("PG(2,%d)", q), func(b *testing.B) {
			for b.Loop() {
				if r, err := DecideSmallest(context.Background(), f); err != nil || !r.Smallest {
					b.Fatal(r, err)
				}
			}
		})
	}
	hall := nearfieldPlane(b)
	b.Run("Hall(9)", func(b *testing.B) {
		for b.Loop() {
			if r, err := DecideSmallest(context.Background(), hall); err != nil || !r.Smallest {
				b.Fatal(r, err)
			}
		}
	})
	for _, q := range []int{3, 4, 5} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("PG(2,%d)/solver-only", q), func(b *testing.B) {
			for b.Loop() {
				if r, err := decideSmallest(context.Background(), f, false, solverOnly); err != nil || !r.Smallest {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// go test ./domination -run '^$' -bench 'DecideArbiter'
func BenchmarkDecideArbiter(b *testing.B) {
	for _, ak := range [][2]int{{3, 2}, {4, 2}, {3, 3}} {
		f, err := construct.Cube(ak[0], ak[1], 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cube a=%d k=%d", ak[0], ak[1]), func(b *testing.B) {
			for b.Loop() {
				if _, err := Decide(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// go test ./domination -run '^$' -bench 'DecideJoin'
//
// Fano planes joined into one another (43 nodes, 1807 quorums,
// nondominated) and PG(2,3) joined into such a system (49 nodes,
// dominated), their nodes renumbered and quorums shuffled: recognised as
// joins and decided from their parts. Each checks its verdict and the
// structure.
func BenchmarkDecideJoin(b *testing.B) {
	fano := pg(b, 2)
	f6 := join(join(join(join(join(fano, 0, fano), 9, fano), 3, fano), 4, fano), 7, fano)
	r := rand.New(rand.NewPCG(15, 5))
	for _, bb := range []struct {
		name string
		f    *set.Family
		dom  bool
	}{{"fano^7", relabel(r, join(f6, 2, fano), 43), false}, {"fano^6+PG(2,3)", relabel(r, join(f6, 2, pg(b, 3)), 49), true}} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				r, err := Decide(context.Background(), bb.f)
				if err != nil || r.Nondominated == bb.dom || r.Structure != StructureJoin {
					b.Fatal(r, err)
				}
			}
		})
	}
}
