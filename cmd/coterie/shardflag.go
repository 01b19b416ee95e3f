package main

import "github.com/coterie-dev/coterie/shard"

// parseShard reads --shard and --shards (shard.Resolve).
func parseShard(spec, shards string, getenv func(string) string) (shard.Spec, error) {
	return shard.Resolve(spec, shards, getenv)
}

// shardsUsage is the help of every command's --shards.
const shardsUsage = "with --shard auto: the number of shards `N`, or the array's task ids A-B (0-7, 1-8); a Slurm array says it on its own"
