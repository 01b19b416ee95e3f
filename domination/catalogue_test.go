package domination

import (
	"context"
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// nondominated decides f and checks a domination witness.
func nondominated(t *testing.T, f *set.Family, err error) bool {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decide(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Nondominated {
		if err := CheckWitness(context.Background(), f, r.Witness); err != nil {
			t.Fatalf("witness %v: %v", r.Witness, err)
		}
	}
	return r.Nondominated
}

// The domination verdicts of the classic constructions:
//   - Peleg and Wool (Distributed Computing 1997): a crumbling wall whose top
//     row has one node is nondominated, the triangle and the wheel among
//     them; with a wider top row it is dominated.
//   - Neilsen and Mizuno ("Coterie join algorithm", IEEE TPDS 3(5), 1992):
//     the binary tree coteries are nondominated, and so is hierarchical
//     consensus with odd groups (joins of odd majorities, which the join
//     keeps nondominated); an even group's majority is dominated.
//   - Garcia-Molina and Barbara (JACM 1985): weighted voting with an odd
//     total of votes is nondominated (a set or its complement holds more
//     than half).
//   - Malkhi and Reiter's threshold systems for b ≥ 1 have quorums larger
//     than a majority, and are dominated.
func TestCatalogueDomination(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func() (*set.Family, error)
		want bool
	}{
		{"triangle 1", func() (*set.Family, error) { return construct.Triangle(1) }, true},
		{"triangle 4", func() (*set.Family, error) { return construct.Triangle(4) }, true},
		{"triangle 5", func() (*set.Family, error) { return construct.Triangle(5) }, true},
		{"wall 1,3,2,4", func() (*set.Family, error) { return construct.Wall([]int{1, 3, 2, 4}) }, true},
		{"wall 1,5,5", func() (*set.Family, error) { return construct.Wall([]int{1, 5, 5}) }, true},
		{"cwlog 17", func() (*set.Family, error) { return construct.CWlog(17) }, true},
		{"wall 2,2,2", func() (*set.Family, error) { return construct.Wall([]int{2, 2, 2}) }, false},
		{"wall 3,4", func() (*set.Family, error) { return construct.Wall([]int{3, 4}) }, false},
		{"wheel 6", func() (*set.Family, error) { return construct.Wheel(6) }, true},
		{"tree 2,2", func() (*set.Family, error) { return construct.Tree(2, 2) }, true},
		{"tree 2,3", func() (*set.Family, error) { return construct.Tree(2, 3) }, true},
		{"hqc 3,3", func() (*set.Family, error) { return construct.HQC([]int{3, 3}) }, true},
		{"hqc 3,5", func() (*set.Family, error) { return construct.HQC([]int{3, 5}) }, true},
		{"hqc 4,3", func() (*set.Family, error) { return construct.HQC([]int{4, 3}) }, false},
		{"vote 3,1,1,1,1", func() (*set.Family, error) { return construct.Vote([]int{3, 1, 1, 1, 1}, 0) }, true},
		{"vote 5,4,3,2,1", func() (*set.Family, error) { return construct.Vote([]int{5, 4, 3, 2, 1}, 0) }, true},
		{"vote 2,2,1,1", func() (*set.Family, error) { return construct.Vote([]int{2, 2, 1, 1}, 0) }, false},
		{"byzantine 5,1", func() (*set.Family, error) {
			f, err := construct.Byzantine(5, 1, true)
			if err != nil {
				return nil, err
			}
			return f.Enumerate(100)
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.f()
			if got := nondominated(t, f, err); got != tt.want {
				t.Errorf("nondominated = %v, want %v", got, tt.want)
			}
		})
	}
}

// The grid protocol, B-grid and M-Grid are reported either way with a
// checked witness; these verdicts are what the package finds, and the
// witness (when dominated) is checked by CheckWitness.
func TestCatalogueDominationWitnesses(t *testing.T) {
	for _, f := range []func() (*set.Family, error){
		func() (*set.Family, error) { return construct.CGrid(3, 3) },
		func() (*set.Family, error) { return construct.BGrid(2, 2, 2) },
		func() (*set.Family, error) { return construct.MGrid(9, 0) },
		func() (*set.Family, error) { return construct.Tree(3, 1) },
	} {
		g, err := f()
		t.Run(fmt.Sprint(g.Kind, g.Params), func(t *testing.T) { nondominated(t, g, err) })
	}
}
