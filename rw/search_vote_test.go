package rw

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
)

// TestDomainVotes: with 9 nodes in 3 zones, as 3+3+3 (the example of
// docs/domains.md) and as 5+2+2, the weighted votes with equal votes per
// zone that survive any one zone failing are found, and the availability
// each carries is exactly the brute force over every node × zone state.
// With 5+2+2 the majority of the nodes does not survive the loss of the
// large zone, but the vote does.
func TestDomainVotes(t *testing.T) {
	for _, tt := range []struct {
		name  string
		zones []int
		votes bool // whether votes differ from a threshold
	}{
		{"3+3+3", []int{3, 3, 3}, false},
		{"5+2+2", []int{5, 2, 2}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := domain.New(9)
			v := 0
			for z, k := range tt.zones {
				for range k {
					_ = tr.Place(v, fmt.Sprintf("zone-%c", 'a'+z))
					v++
				}
			}
			tr.SetLevelNames([]string{"zone"})
			for d := range tr.Len() {
				_ = tr.SetP(d, big.NewRat(999, 1000))
			}
			nodes := DefaultNodes(9)
			wl, err := ParseWorkload("0.5")
			if err != nil {
				t.Fatal(err)
			}
			opts := SearchOptions{Options: Options{Workload: wl}, P: 0.99, Resilience: 1, Domains: tr, SurviveLevel: 1, SurviveK: 1}
			ctx := context.Background()
			// The majority of the nodes.
			maj, majErr := evaluate(ctx, nodes, expr.Threshold(9, 5), "majority", opts)
			if tt.votes != (majErr != nil) {
				t.Fatalf("majority survives a zone: %v", majErr == nil)
			}
			var found []*Candidate
			if majErr == nil {
				found = append(found, maj)
			}
			tried := 0
			domainVotes(tr, func(e *expr.Expr, src string) bool {
				tried++
				c, err := evaluate(ctx, nodes, e, src, opts)
				if err == nil {
					found = append(found, c)
				}
				return true
			})
			if !tt.votes {
				if tried != 0 {
					t.Fatalf("%d votes tried for equal zones (they are thresholds)", tried)
				}
			}
			if len(found) == 0 {
				t.Fatalf("none of %d votes survives a zone", tried)
			}
			p := make([]*big.Rat, 9)
			for v := range p {
				p[v] = big.NewRat(99, 100)
			}
			for _, c := range found {
				if c != maj && !strings.HasPrefix(c.Source, "weighted vote") {
					t.Fatalf("source %q", c.Source)
				}
				if r, w := c.DomainResilience[0][0].K, c.DomainResilience[0][1].K; min(r, w) < 1 {
					t.Fatalf("%s: zone resilience %d, %d", c.Reads, r, w)
				}
				s, err := New(9, c.Reads, c.Writes, nil)
				if err != nil {
					t.Fatal(err)
				}
				br, bw, _ := bruteRW(s, tr, p)
				least := br
				if bw.Cmp(br) < 0 {
					least = bw
				}
				if f, _ := least.Float64(); f != c.Availability {
					t.Fatalf("%s: availability %v, brute force %v", c.Reads, c.Availability, f)
				}
			}
			// And the whole search counts them.
			res, err := Search(ctx, nodes, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.votes && res.FeasibleBy["domain-vote"] != len(found) {
				t.Fatalf("search: %d feasible votes, %d here", res.FeasibleBy["domain-vote"], len(found))
			}
		})
	}
}
