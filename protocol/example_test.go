package protocol_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
)

// Run a protocol on a system and compare its messages with the paper's
// count: ordered locking (Kakugawa et al.) asks the members of its quorum
// one at a time, 3|q| = 9 messages per entry on the Fano plane, and never
// deadlocks, even when every node asks at once.
func Example() {
	fano, _ := construct.ProjectivePlane(2)
	sys, _ := protocol.NewSystem(set.System{Family: fano})
	spec, _ := protocol.Lookup("ordered")
	r, _ := protocol.Simulate(context.Background(), spec, sys, protocol.Config{
		Load: protocol.Load{Kind: protocol.Heavy}, Entries: 500, Seed: 7})
	fmt.Println(r.Entries, r.MessagesPerEntry, r.Paper.Formula, r.SafetyViolations, r.Deadlock)
	// Output: 500 9 3|q| 0 false
}

// Maekawa's algorithm on the projective plane of order 3 (K = 4) under light
// demand: 3(K−1) = 9 messages per entry, as his Table I says.
func ExampleSimulate() {
	f, _ := construct.ProjectivePlane(3)
	sys, _ := protocol.NewSystem(set.System{Family: f})
	spec, _ := protocol.Lookup("maekawa")
	r, _ := protocol.Simulate(context.Background(), spec, sys, protocol.Config{
		Load: protocol.Load{Kind: protocol.Light}, Entries: 1000, Seed: 1})
	fmt.Println(r.MessagesPerEntry, r.ByType["REQUEST"], r.ByType["LOCKED"], r.ByType["RELEASE"], r.Paper.Formula)
	// Output: 9 3 3 3 3(K−1)
}

// Every delivery order of two requests on the Fano plane: ordered locking
// is safe, deadlock free and terminates.
func ExampleExplore() {
	f, _ := construct.ProjectivePlane(2)
	sys, _ := protocol.NewSystem(set.System{Family: f})
	spec, _ := protocol.Lookup("ordered")
	r, _ := protocol.Explore(context.Background(), spec, sys, protocol.ExploreConfig{Requests: 2})
	fmt.Println(r.Complete, r.Safe, r.DeadlockFree, *r.Terminates)
	// Output: true true true true
}
