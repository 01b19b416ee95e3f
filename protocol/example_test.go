package protocol_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
)

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
