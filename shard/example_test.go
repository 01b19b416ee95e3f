package shard_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// Split a count over three shards and merge it: the quorums of the
// majority of six nodes (every 3-subset, C(6,3) = 20 of them), cut into
// pieces by their smallest node p (C(5−p, 2) quorums each: 10, 6, 3, 1).
// Shard I counts the pieces p with p mod 3 = I − 1 and writes its part;
// the merge checks the parts and adds them up.
func Example() {
	f, _ := set.NewThreshold(6, 3).Enumerate(100)
	hash := shard.HashInput([]byte("majority of 6"))
	var parts []*shard.Part
	for i := 3; i >= 1; i-- { // in any order
		sp := shard.Spec{Index: i, Count: 3}
		count := 0
		for _, q := range f.All() {
			if sp.Owns(q.Elements()[0]) {
				count++
			}
		}
		p, _ := shard.New("example", sp, hash, nil, count)
		parts = append(parts, p)
	}
	checked, err := shard.Check(parts, []string{"c.json", "b.json", "a.json"})
	if err != nil {
		panic(err)
	}
	counts, _ := shard.Decode[int](checked)
	total := 0
	for i, c := range counts {
		fmt.Printf("shard %s: %d\n", checked[i].Shard, c)
		total += c
	}
	fmt.Println("total:", total)
	// Output:
	// shard 1/3: 11
	// shard 2/3: 6
	// shard 3/3: 3
	// total: 20
}
