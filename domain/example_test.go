package domain_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/domain"
)

// Six nodes in two regions; the majority of six (any four) survives any
// one zone failing, not one region: failing eu takes four nodes.
func ExampleThresholdResilience() {
	t := domain.New(6)
	for v, path := range []string{"eu/a", "eu/a", "eu/b", "eu/b", "us/c", "us/c"} {
		_ = t.Place(v, path)
	}
	all := []int{0, 1, 2, 3, 4, 5}
	for l := 1; l <= t.Depth(); l++ {
		r := domain.ThresholdResilience(t, l, all, 4)
		var kill []string
		for _, d := range r.Killing {
			kill = append(kill, t.Path(d))
		}
		fmt.Printf("level %d: %d of %d may fail; %v kill it\n", l, r.K, r.Domains, kill)
	}
	// Output:
	// level 1: 0 of 2 may fail; [eu] kill it
	// level 2: 1 of 3 may fail; [eu/a eu/b] kill it
}
