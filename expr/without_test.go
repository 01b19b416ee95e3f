package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// TestWithoutBrute: the quorums of e.Without(dead) are exactly the sets
// that avoid dead and contain a quorum of e, over all 2^n sets.
func TestWithoutBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, src := range []string{
		"choose(2, 1, 2, 3)", "1*2 + 3*4 + 5", "choose(3, 1*2, 3 + 4, 5, 6*7)",
		"(1 + 2)*(3 + 4)*(5 + 6)", "choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))",
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		e, err = e.Bind(func(name string) (int, error) {
			v := 0
			for _, c := range name {
				v = v*10 + int(c-'0')
			}
			return v - 1, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		n := e.MaxNode() + 1
		for range 20 {
			dead := set.New(n)
			for v := range n {
				if r.IntN(4) == 0 {
					dead.Add(v)
				}
			}
			w := e.Without(dead)
			for m := 0; m < 1<<n; m++ {
				s := set.New(n)
				for v := range n {
					if m>>v&1 == 1 {
						s.Add(v)
					}
				}
				live := new(set.Set).Difference(s, dead)
				want := e.IsQuorum(live)
				got := w != nil && w.IsQuorum(live)
				if got != want {
					t.Fatalf("%s without %v: on %v got %v, want %v", src, dead, live, got, want)
				}
				if w != nil && w.IsQuorum(s) && !set.Equal(s, live) && !e.IsQuorum(live) {
					t.Fatalf("%s without %v: %v uses a dead node", src, dead, s)
				}
			}
		}
	}
}
