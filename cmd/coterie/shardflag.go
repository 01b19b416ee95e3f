package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/coterie-dev/coterie/shard"
)

// parseShard reads a --shard value: "I/N", or "auto" with shards = N, where I
// comes from the environment (getenv): JOB_COMPLETION_INDEX + 1 for a
// Kubernetes Indexed Job, or SLURM_ARRAY_TASK_ID (1..N) for a Slurm array.
// shards must be 0 unless spec is "auto". The error says what is wrong in
// the user's terms.
func parseShard(spec string, shards int, getenv func(string) string) (shard.Spec, error) {
	if spec == "auto" {
		if shards < 1 {
			return shard.Spec{}, errors.New("--shard auto needs --shards N, the number of shards")
		}
		if v := getenv(shard.EnvKubernetes); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < 0 || i >= shards {
				return shard.Spec{}, fmt.Errorf("--shard auto: %s=%q is not an index 0..%d", shard.EnvKubernetes, v, shards-1)
			}
			return shard.Spec{Index: i + 1, Count: shards}, nil
		}
		if v := getenv(shard.EnvSlurm); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < 1 || i > shards {
				return shard.Spec{}, fmt.Errorf("--shard auto: %s=%q is not an index 1..%d (run the array as --array=1-%d)", shard.EnvSlurm, v, shards, shards)
			}
			return shard.Spec{Index: i, Count: shards}, nil
		}
		return shard.Spec{}, fmt.Errorf("--shard auto: neither %s (Kubernetes Indexed Job) nor %s (Slurm array) is set", shard.EnvKubernetes, shard.EnvSlurm)
	}
	if shards != 0 {
		return shard.Spec{}, errors.New("--shards goes with --shard auto; with --shard I/N the N is the number of shards")
	}
	sp, err := shard.ParseSpec(spec)
	if err != nil {
		return shard.Spec{}, fmt.Errorf("--shard %w", err)
	}
	return sp, nil
}
