package main

import (
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/shard"
)

// parseShard reads a --shard value: "I/N", or "auto", where the shard
// comes from the batch scheduler's environment (getenv; see [shard.Auto]).
//
// shards must be empty unless spec is "auto". The error says what is
// wrong in the user's terms.
func parseShard(spec, shards string, getenv func(string) string) (shard.Spec, error) {
	if spec != "auto" {
		if shards != "" {
			return shard.Spec{}, errors.New("--shards goes with --shard auto; with --shard I/N the N is the number of shards")
		}
		sp, err := shard.ParseSpec(spec)
		if err != nil {
			return shard.Spec{}, fmt.Errorf("--shard %w", err)
		}
		return sp, nil
	}
	return shard.Auto(shards, getenv)
}

// shardsUsage is the help of every command's --shards.
const shardsUsage = "with --shard auto: the number of shards `N`, or the array's task ids A-B (0-7, 1-8); a Slurm array says it on its own"
