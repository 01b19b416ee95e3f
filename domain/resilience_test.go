package domain

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// bruteKill returns the size of a smallest set of the level's domains
// whose failure leaves no quorum of has, by trying every subset; -1 if
// none.
func bruteKill(t *Tree, level int, has func(live *set.Set) bool) int {
	ds := t.AtLevel(level)
	best := -1
	for s := 0; s < 1<<len(ds); s++ {
		live := set.Full(t.N())
		for i, d := range ds {
			if s>>i&1 == 1 {
				for _, v := range t.Under(d) {
					live.Remove(v)
				}
			}
		}
		if !has(live) {
			if c := bits.OnesCount(uint(s)); best < 0 || c < best {
				best = c
			}
		}
	}
	return best
}

func randomTree(r *rand.Rand, n int) *Tree {
	t := New(n)
	for v := range n {
		path := fmt.Sprintf("r%d/z%d", r.IntN(2), r.IntN(3))
		if r.IntN(4) > 0 {
			path += fmt.Sprintf("/k%d", r.IntN(3))
		}
		_ = t.Place(v, path)
	}
	return t
}

func TestListedResilienceBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 60 {
		n := 6 + r.IntN(7)
		tr := randomTree(r, n)
		f := set.NewFamily(n)
		for range 1 + r.IntN(8) {
			q := set.New(n)
			for v := range n {
				if r.IntN(3) == 0 {
					q.Add(v)
				}
			}
			if q.IsEmpty() {
				q.Add(r.IntN(n))
			}
			f.Add(q, set.NoOwner)
		}
		has := func(live *set.Set) bool {
			for _, q := range f.All() {
				if set.Subset(q, live) {
					return true
				}
			}
			return false
		}
		for level := 1; level <= tr.Depth(); level++ {
			res, err := ListedResilience(context.Background(), tr, level, f)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteKill(tr, level, has)
			if want < 0 {
				if res.Killing != nil || res.K != res.Domains {
					t.Fatalf("trial %d level %d: nothing kills, got %+v", trial, level, res)
				}
				continue
			}
			if len(res.Killing) != want || res.K != want-1 {
				t.Fatalf("trial %d level %d: killing set %v, brute force size %d", trial, level, res.Killing, want)
			}
			live := set.Full(n)
			for _, d := range res.Killing {
				for _, v := range tr.Under(d) {
					live.Remove(v)
				}
			}
			if has(live) {
				t.Fatalf("trial %d level %d: witness %v leaves a quorum", trial, level, res.Killing)
			}
		}
	}
}

func TestThresholdResilienceBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 60 {
		n := 5 + r.IntN(10)
		tr := randomTree(r, n)
		k := 1 + r.IntN(n)
		var all []int
		for v := range n {
			all = append(all, v)
		}
		has := func(live *set.Set) bool { return live.Len() >= k }
		for level := 1; level <= tr.Depth(); level++ {
			res := ThresholdResilience(tr, level, all, k)
			want := bruteKill(tr, level, has)
			if want < 0 {
				if res.Killing != nil {
					t.Fatalf("trial %d: nothing kills, got %+v", trial, res)
				}
				continue
			}
			if len(res.Killing) != want || res.K != want-1 {
				t.Fatalf("trial %d level %d k=%d: killing set %v, brute force size %d", trial, level, k, res.Killing, want)
			}
		}
	}
}
