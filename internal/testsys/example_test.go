package testsys_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// Random systems for a property test: whatever the seed, an intersecting
// family is a coterie, which verify confirms; the same seed gives the same
// family.
func Example() {
	quorums := func(f *set.Family) string {
		var b strings.Builder
		for _, q := range f.All() {
			b.WriteString(q.String())
		}
		return b.String()
	}
	valid, same := 0, 0
	for seed := range uint64(20) {
		f := testsys.Intersecting(rand.New(rand.NewPCG(seed, 1)), 9, 40, 0.5)
		rep, err := verify.Verify(context.Background(), set.System{Family: f}, verify.Options{})
		if err == nil && rep.Valid {
			valid++
		}
		g := testsys.Intersecting(rand.New(rand.NewPCG(seed, 1)), 9, 40, 0.5)
		if quorums(f) == quorums(g) {
			same++
		}
	}
	fmt.Println(valid, "of 20 valid,", same, "of 20 the same again")
	// Output: 20 of 20 valid, 20 of 20 the same again
}
