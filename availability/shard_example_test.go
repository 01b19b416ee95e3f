package availability_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/shard"
)

// Split the exact availability of Maekawa's 3×3 grid by BDD across three
// shards (each could run on its own machine), and merge the shares: the
// merge is the polynomial of the unsplit computation.
func ExampleComputeShare() {
	ctx := context.Background()
	f, _ := construct.Grid(3, 3, 9)
	opts := availability.ShareOptions{Options: availability.Options{Method: availability.MethodBDD}}
	var shares []*availability.Share
	for i := 1; i <= 3; i++ {
		sh, err := availability.ComputeShare(ctx, f, shard.Spec{Index: i, Count: 3}, opts)
		if err != nil {
			panic(err)
		}
		fmt.Printf("shard %d/3: %s, %d of %d pieces\n", i, sh.Kind, sh.PiecesDone, sh.Pieces)
		shares = append(shares, sh)
	}
	merged, _, err := availability.MergeShares(ctx, shares, nil)
	if err != nil {
		panic(err)
	}
	whole, _ := availability.Compute(ctx, f, opts.Options)
	fmt.Println("merged:", merged.Poly.Strings())
	fmt.Println("whole: ", whole.Poly.Strings())
	// Output:
	// shard 1/3: pieces, 22 of 64 pieces
	// shard 2/3: pieces, 21 of 64 pieces
	// shard 3/3: pieces, 21 of 64 pieces
	// merged: [0 0 0 0 0 9 36 36 9 1]
	// whole:  [0 0 0 0 0 9 36 36 9 1]
}

// A computation stopped part-way resumes from its checkpoint: here the
// first run is cancelled after four pieces, the second does the rest.
func ExampleComputeResumable() {
	f, _ := construct.Grid(3, 3, 9)
	ck := &availability.Checkpoint{}
	ctx, cancel := context.WithCancel(context.Background())
	saved := 0
	opts := availability.ShareOptions{Checkpoint: ck, Save: func(*availability.Checkpoint) error {
		// A program would write ck to a file here.
		if saved++; saved == 4 {
			cancel()
		}
		return nil
	}}
	_, err := availability.ComputeResumable(ctx, f, opts)
	fmt.Println("first run stopped:", errors.Is(err, context.Canceled))
	res, err := availability.ComputeResumable(context.Background(), f, opts)
	if err != nil {
		panic(err)
	}
	fmt.Println("resumed:", res.Method, res.Poly.Strings())
	// Output:
	// first run stopped: true
	// resumed: bdd [0 0 0 0 0 9 36 36 9 1]
}
