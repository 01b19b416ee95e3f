package availability

import (
	"context"
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// tree300 places 300 nodes in 3 regions × 3 zones × 4 racks (36 racks,
// 8 or 9 nodes each, round-robin), regions up with probability 0.9999,
// zones 0.999 and racks 0.99.
func tree300(b testing.TB) *domain.Tree {
	t := domain.New(300)
	for v := range 300 {
		rack := v % 36
		path := fmt.Sprintf("region-%d/zone-%d/rack-%d", rack/12, rack/4%3, rack%4)
		if err := t.Place(v, path); err != nil {
			b.Fatal(err)
		}
	}
	for d := range t.Len() {
		p := []string{"", "0.9999", "0.999", "0.99"}[t.Level(d)]
		_ = t.SetP(d, rat(p))
	}
	return t
}

// BenchmarkDomainMajority300: majority of 300 nodes at p = 0.999 in the
// 36 racks of tree300, by the generating function up the tree.
func BenchmarkDomainMajority300(b *testing.B) {
	tr := tree300(b)
	m := UniformModel(300, rat("0.999"), tr)
	f := set.NewThreshold(300, 151)
	for b.Loop() {
		if _, _, err := DomainAvailability(context.Background(), f, m, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDomainVote300: weighted voting over the 300 nodes of tree300
// (weights 1, 2, 3 in turn, 600 votes, more than half needed) at
// p = 0.999, by the generating function up the tree.
func BenchmarkDomainVote300(b *testing.B) {
	tr := tree300(b)
	m := UniformModel(300, rat("0.999"), tr)
	w := make([]int, 300)
	for i := range w {
		w[i] = 1 + i%3
	}
	for b.Loop() {
		if _, err := VoteAvailability(context.Background(), w, []int{301}, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDomainResilience300: the rack, zone and region resilience of
// the grid and of the majority of tree300.
func BenchmarkDomainResilience300(b *testing.B) {
	tr := tree300(b)
	f, err := construct.Grid(15, 20, 300)
	if err != nil {
		b.Fatal(err)
	}
	all := make([]int, 300)
	for i := range all {
		all[i] = i
	}
	for b.Loop() {
		for level := 1; level <= 3; level++ {
			if _, err := domain.ListedResilience(context.Background(), tr, level, f); err != nil {
				b.Fatal(err)
			}
			domain.ThresholdResilience(tr, level, all, 151)
		}
	}
}

// BenchmarkDomainGridListed: Maekawa's r×c grid, listed, with its nodes
// placed round-robin in the 36 racks of tree300's 3 regions × 3 zones × 4
// racks, by the BDD of the lifted family: its size grows about 2^min(r, c)
// (a full row and a full column are both needed), so 15×20 is out of
// reach; the small shapes measure the growth.
func BenchmarkDomainGridListed(b *testing.B) {
	for _, rc := range [][2]int{{4, 5}, {5, 6}, {6, 8}} {
		r, c := rc[0], rc[1]
		n := r * c
		b.Run(fmt.Sprintf("%dx%d", r, c), func(b *testing.B) {
			t := domain.New(n)
			for v := range n {
				rack := v % 36
				if err := t.Place(v, fmt.Sprintf("region-%d/zone-%d/rack-%d", rack/12, rack/4%3, rack%4)); err != nil {
					b.Fatal(err)
				}
			}
			for d := range t.Len() {
				_ = t.SetP(d, rat([]string{"", "0.9999", "0.9995", "0.999"}[t.Level(d)]))
			}
			f, err := construct.Grid(r, c, n)
			if err != nil {
				b.Fatal(err)
			}
			m := UniformModel(n, rat("0.999"), t)
			for b.Loop() {
				if _, err := LiftedAvailability(context.Background(), f, m, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
