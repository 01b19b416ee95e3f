package verify_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// Build a system, prove it, break it, and read the witness.
func Example() {
	fano, _ := construct.ProjectivePlane(2) // Maekawa's Fig. 1(b)
	r, _ := verify.Verify(context.Background(), set.System{Family: fano}, verify.Options{})
	fmt.Println("PG(2,2) valid:", r.Valid)

	// Drop a node from the first line: some other line misses it now.
	broken := fano.Clone()
	v, _ := broken.Quorums[0].Max()
	broken.Quorums[0].Remove(v)
	r, _ = verify.Verify(context.Background(), set.System{Family: broken}, verify.Options{})
	c := r.Failed()
	w := c.Witness.Quorums
	fmt.Printf("broken valid: %v; %s fails: quorums %v and %v share no node\n",
		r.Valid, c.Name, &broken.Quorums[w[0]], &broken.Quorums[w[1]])
	// Output:
	// PG(2,2) valid: true
	// broken valid: false; intersection fails: quorums {0 1} and {2 3 6} share no node
}
