package protocol

import (
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A threshold level held by its rule keeps the rule, and offers the
// explorer the requests the same level listed offers: every w-subset, in
// the same order, with the same largest quorum.
func TestThresholdLevelAgreesWithListed(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewSystem(set.System{Family: f})
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewSystem(set.System{Family: e})
			if err != nil {
				t.Fatal(err)
			}
			if la, lb := a.Levels[0], b.Levels[0]; la.Threshold != w || la.Quorums != nil || lb.Threshold != 0 || len(lb.Quorums) != len(e.Quorums) {
				t.Fatalf("%d of %d: levels %+v and %+v", w, n, la, lb)
			}
			if a.MaxQuorum() != w || b.MaxQuorum() != w {
				t.Errorf("%d of %d: largest quorums %d and %d", w, n, a.MaxQuorum(), b.MaxQuorum())
			}
			for node := range n {
				oa, err := a.options(node, false, 1<<10)
				if err != nil {
					t.Fatal(err)
				}
				ob, err := b.options(node, false, 1<<10)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(oa, ob, func(x, y option) bool { return x.h == y.h && slices.Equal(x.q, y.q) }) {
					t.Fatalf("%d of %d, node %d: options %v, listed %v", w, n, node+1, oa, ob)
				}
			}
		}
	}
}
