package domination_test

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/shard"
)

// Split the count of the minimal transversals of the 4×4 grid across
// three shards (each could run on its own machine) and merge the counts:
// the merge is the unsplit count.
func ExampleMergeShardCounts() {
	ctx := context.Background()
	f, _ := construct.Grid(4, 4, 16)
	var counts []*domination.ShardCount
	for i := 1; i <= 3; i++ {
		sp := shard.Spec{Index: i, Count: 3}
		pc, err := domination.CountTransversalPieces(ctx, f, sp.Owns, nil, domination.Options{}, nil)
		if err != nil {
			panic(err)
		}
		counts = append(counts, pc.Share())
	}
	merged, err := domination.MergeShardCounts(counts)
	if err != nil {
		panic(err)
	}
	whole, _ := domination.CountTransversals(ctx, f)
	fmt.Println("merged:", merged.Total, "smallest", merged.Smallest)
	fmt.Println("whole: ", whole.Total, "smallest", whole.Smallest)
	// Output:
	// merged: 488 smallest 4
	// whole:  488 smallest 4
}
