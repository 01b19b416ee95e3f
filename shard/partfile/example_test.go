package partfile_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// A count of minimal transversals split in two shards, each written as a
// part file, read back, checked and merged: what `coterie transversals
// --count --shard I/2` and `coterie merge` do, from Go.
func Example() {
	ctx := context.Background()
	fano, err := construct.ProjectivePlane(2)
	if err != nil {
		panic(err)
	}
	hash, err := partfile.InputHash(set.System{Family: fano})
	if err != nil {
		panic(err)
	}
	var parts []*shard.Part
	var names []string
	for i := 1; i <= 2; i++ {
		sp := shard.Spec{Index: i, Count: 2}
		pc, err := domination.CountTransversalPieces(ctx, fano, sp.Owns, nil, domination.Options{}, nil)
		if err != nil {
			panic(err)
		}
		part, err := partfile.TransversalsPart(sp, hash, partfile.TransversalsOptions{Name: "fano"}, fano.N, pc)
		if err != nil {
			panic(err)
		}
		var file bytes.Buffer // a file in a real run
		if err := shard.Write(&file, part); err != nil {
			panic(err)
		}
		back, err := shard.Read(file.Bytes())
		if err != nil {
			panic(err)
		}
		parts, names = append(parts, back), append(names, fmt.Sprintf("part%d.json", i))
	}
	parts, err = shard.Check(parts, names)
	if err != nil {
		panic(err)
	}
	_, counts, err := partfile.DecodeTransversals(parts)
	if err != nil {
		panic(err)
	}
	c, err := domination.MergeShardCounts(counts)
	if err != nil {
		panic(err)
	}
	fmt.Println("minimal transversals:", c.Total, "smallest:", c.Smallest)
	// Output:
	// minimal transversals: 7 smallest: 3
}
