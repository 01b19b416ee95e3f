package systems_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/systems"
)

// A Cassandra keyspace read with LOCAL_QUORUM in dc2 and written with
// QUORUM: reads need 2 of dc2's 3 replicas, writes 4 of the 6, and a read
// can miss a write.
func ExampleLookup() {
	f, _ := systems.Lookup("cassandra")
	cfg, err := f.Parse("shop.cql", []byte(`CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};
read: LOCAL_QUORUM
write: QUORUM
read_dc: dc2
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Labels)
	fmt.Println("reads:", cfg.ReadExpr)
	fmt.Println("writes:", cfg.WriteExpr)
	live := set.Of(0, 1, 2, 3) // dc1's three replicas and dc2-r1
	fmt.Println("writes with dc1 and dc2-r1:", cfg.Writes.HasQuorum(live), "reads:", cfg.Reads.HasQuorum(live))
	fmt.Println(cfg.Notes[0].Text)
	// Output:
	// [dc1-r1 dc1-r2 dc1-r3 dc2-r1 dc2-r2 dc2-r3]
	// reads: choose(2, dc2-r1, dc2-r2, dc2-r3)
	// writes: choose(4, dc1-r1, dc1-r2, dc1-r3, dc2-r1, dc2-r2, dc2-r3)
	// writes with dc1 and dc2-r1: true reads: false
	// LOCAL_QUORUM reads with QUORUM writes: a read in dc2 can miss a write (a read from 2 replicas in dc2, a write acknowledged by 3 replicas in dc1 and 1 in dc2)
}
