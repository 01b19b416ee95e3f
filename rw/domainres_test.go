package rw

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// TestDomainKillAgrees: the cheapest path to false in the formula's BDD
// over the domains finds killing sets of the same size as branch and
// bound over the listed quorums, and each witness kills.
func TestDomainKillAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	srcs := []string{
		"choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))",
		"(1*2*3 + 4*5*6 + 7*8*9)*(1*4*7 + 2*5*8 + 3*6*9)",
		"1*2 + 2*3 + 3*4 + 4*5 + 5*6 + 6*7 + 7*8 + 8*9",
		"choose(3, 1 + 2, 3*4, 5, choose(2, 6, 7, 8), 9)",
	}
	for trial := range 40 {
		src := srcs[trial%len(srcs)]
		e, _ := expr.Parse(src)
		e, err := e.Bind(func(name string) (int, error) {
			var v int
			_, err := fmt.Sscan(name, &v)
			return v - 1, err
		})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(9, e, e, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr := domain.New(9)
		for v := range 9 {
			path := fmt.Sprintf("g%d/z%d", r.IntN(2), r.IntN(4))
			if r.IntN(3) == 0 {
				path = fmt.Sprintf("g%d", r.IntN(2)) // a node above the zones
			}
			_ = tr.Place(v, path)
		}
		for l := 1; l <= tr.Depth(); l++ {
			got, _, err := s.DomainResilience(context.Background(), tr, l, 0)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := e.Family(9, 0)
			want, err := domain.ListedResilience(context.Background(), tr, l, f)
			if err != nil {
				t.Fatal(err)
			}
			if got.K != want.K || (got.Killing == nil) != (want.Killing == nil) || len(got.Killing) != len(want.Killing) {
				t.Fatalf("%s level %d: BDD %+v, listed %+v", src, l, got, want)
			}
			if got.Killing == nil {
				continue
			}
			live := set.Full(9)
			for _, d := range got.Killing {
				for _, v := range tr.Under(d) {
					live.Remove(v)
				}
			}
			if e.IsQuorum(live) {
				t.Fatalf("%s level %d: witness %v leaves a quorum", src, l, got.Killing)
			}
		}
	}
}
