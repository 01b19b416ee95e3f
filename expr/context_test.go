package expr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// pathCover is (n1 + n2)*(n2 + n3)*…*(nm + nm+1): the vertex covers of a
// path with m edges, a product of overlapping sums whose candidates are
// mostly not minimal (2^m of them).
func pathCover(t testing.TB, m int) *Expr {
	var terms []string
	for i := 1; i <= m; i++ {
		terms = append(terms, fmt.Sprintf("(%d + %d)", i, i+1))
	}
	return mustParse(t, strings.Join(terms, "*"))
}

// TestFamilyContextStops: listing the minimal vertex covers of a path of
// 1,000 edges (2^1000 candidates) stops at the first look at the context
// after it is cancelled, with the context's error.
func TestFamilyContextStops(t *testing.T) {
	e := pathCover(t, 1000)
	for _, after := range []int{0, 1, 50} {
		ctx := &testsys.StopAfter{Context: context.Background(), Left: after}
		f, ok, err := e.FamilyContext(ctx, 1001, 0)
		if !errors.Is(err, context.Canceled) || f != nil || ok {
			t.Fatalf("after %d: %v %v %v, want context.Canceled", after, f, ok, err)
		}
		// One look per candidate, one that stops the listing and one by
		// FamilyContext itself after it.
		if ctx.Calls != after+2 {
			t.Errorf("after %d looks the listing went on to %d looks", after, ctx.Calls)
		}
	}
}

// TestFamilyContextAgrees: uncancelled, FamilyContext lists the same
// quorums as Family, and they are the minimal vertex covers of the path,
// checked against all 2^(m+1) subsets.
func TestFamilyContextAgrees(t *testing.T) {
	for m := 1; m <= 9; m++ {
		e := pathCover(t, m)
		n := m + 1
		f, ok, err := e.FamilyContext(context.Background(), n, 0)
		g, ok2 := e.Family(n, 0)
		if err != nil || !ok || !ok2 || len(f.Quorums) != len(g.Quorums) {
			t.Fatalf("m = %d: %v %v %v", m, ok, ok2, err)
		}
		want := 0
		s := set.New(n)
		for mask := 0; mask < 1<<n; mask++ {
			s.Clear()
			for v := range n {
				if mask&(1<<v) != 0 {
					s.Add(v)
				}
			}
			// A cover every node of which covers an edge alone.
			isCover := func(s *set.Set) bool {
				for i := range m {
					if !s.Has(i) && !s.Has(i+1) {
						return false
					}
				}
				return true
			}
			if !isCover(s) {
				continue
			}
			minimal := true
			for v := range s.All() {
				c := s.Clone()
				c.Remove(v)
				if isCover(c) {
					minimal = false
				}
			}
			if minimal {
				want++
				if !slices.ContainsFunc(f.Quorums, func(q set.Set) bool { return set.Equal(&q, s) }) {
					t.Errorf("m = %d: cover %v not listed", m, s.Elements())
				}
			}
		}
		if len(f.Quorums) != want {
			t.Errorf("m = %d: %d quorums, want %d", m, len(f.Quorums), want)
		}
		for i := range f.Quorums {
			if !set.Equal(&f.Quorums[i], &g.Quorums[i]) {
				t.Errorf("m = %d: quorum %d differs", m, i)
			}
		}
	}
}
