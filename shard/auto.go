package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Slurm's description of the job array a task belongs to (sbatch(1),
// OUTPUT ENVIRONMENT VARIABLES): the smallest and largest task id, the
// number of tasks and the step between ids.
const (
	envSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	envSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	envSlurmStep  = "SLURM_ARRAY_TASK_STEP"
)

// shardRange is a --shards value: the number of shards, and the first
// index of the array that runs them when the value names it ("0-7").
type shardRange struct {
	count    int
	first    int
	hasFirst bool
}

// parseShards reads the shards of [Auto]: "N", or "A-B", the task ids of the whole
// array (A = 0 or 1 for the usual 0- and 1-based arrays).
func parseShards(v string) (shardRange, error) {
	v = strings.TrimSpace(v)
	if a, b, ok := strings.Cut(v, "-"); ok && a != "" {
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 != nil || err2 != nil || lo < 0 || hi < lo {
			return shardRange{}, fmt.Errorf("--shards %q: want N (the number of shards) or A-B (the array's task ids, such as 0-7)", v)
		}
		if hi-lo+1 > MaxShards {
			return shardRange{}, fmt.Errorf("--shards %s: at most %d shards", v, MaxShards)
		}
		return shardRange{count: hi - lo + 1, first: lo, hasFirst: true}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return shardRange{}, fmt.Errorf("--shards %q: want N (the number of shards) or A-B (the array's task ids, such as 0-7)", v)
	}
	if n > MaxShards {
		return shardRange{}, fmt.Errorf("--shards %d: at most %d shards", n, MaxShards)
	}
	return shardRange{count: n}, nil
}

// Auto is the shard of a task that a batch scheduler runs, as its
// environment (getenv) says; shards is what the user says of the whole
// run: "N", the number of shards, or "A-B", the task ids of the whole
// array (A = 0 or 1 for the usual 0- and 1-based arrays), or "".
//
//   - a Kubernetes Indexed Job gives JOB_COMPLETION_INDEX, 0..N−1, but not
//     N (the Job's completions): shards says it;
//   - a Slurm array gives SLURM_ARRAY_TASK_ID and the array's
//     SLURM_ARRAY_TASK_MIN, _MAX and _COUNT: shard I is the task's place
//     in the array, 0- or 1-based as the array runs, and N the number of
//     tasks, so shards may be left empty. A task resubmitted alone is an
//     array of its own: shards then says the whole array ("0-7"), or its
//     size when the id says the base.
//
// The errors say what is wrong in the terms of the commands' flags,
// --shard auto and --shards.
func Auto(shards string, getenv func(string) string) (Spec, error) {
	var r shardRange
	if shards != "" {
		var err error
		if r, err = parseShards(shards); err != nil {
			return Spec{}, err
		}
	}
	if v := getenv(EnvKubernetes); v != "" {
		return kubernetesShard(v, r, shards)
	}
	if v := getenv(EnvSlurm); v != "" {
		return slurmShard(v, r, shards, getenv)
	}
	return Spec{}, fmt.Errorf("--shard auto: neither %s (Kubernetes Indexed Job) nor %s (Slurm array) is set", EnvKubernetes, EnvSlurm)
}

func kubernetesShard(v string, r shardRange, shards string) (Spec, error) {
	if r.count == 0 {
		return Spec{}, fmt.Errorf("--shard auto: %s is set but a pod is not told the Job's completions: give --shards N, the Job's completions", EnvKubernetes)
	}
	if !r.hasFirst {
		r.first = 0 // Kubernetes indices run 0..completions−1
	}
	i, err := strconv.Atoi(v)
	if err != nil {
		return Spec{}, fmt.Errorf("--shard auto: %s=%q is not a number", EnvKubernetes, v)
	}
	if i < r.first || i >= r.first+r.count {
		return Spec{}, fmt.Errorf("--shard auto: %s=%d is outside the Job's indices %d-%d (--shards %s)", EnvKubernetes, i, r.first, r.first+r.count-1, shards)
	}
	return Spec{Index: i - r.first + 1, Count: r.count}, nil
}

// slurmArray is the array a Slurm task runs in, as its environment says.
type slurmArray struct {
	id, min, max int
	count, step  int // 0 when not set
}

func readSlurmArray(v string, getenv func(string) string) (slurmArray, error) {
	num := func(name string) (int, bool, error) {
		s := getenv(name)
		if s == "" {
			return 0, false, nil
		}
		x, err := strconv.Atoi(s)
		if err != nil || x < 0 {
			return 0, true, fmt.Errorf("--shard auto: %s=%q is not a task id or count", name, s)
		}
		return x, true, nil
	}
	var a slurmArray
	id, err := strconv.Atoi(v)
	if err != nil || id < 0 {
		return a, fmt.Errorf("--shard auto: %s=%q is not a task id", EnvSlurm, v)
	}
	a.id = id
	lo, okLo, err := num(envSlurmMin)
	if err != nil {
		return a, err
	}
	hi, okHi, err := num(envSlurmMax)
	if err != nil {
		return a, err
	}
	if a.count, _, err = num(envSlurmCount); err != nil {
		return a, err
	}
	if a.step, _, err = num(envSlurmStep); err != nil {
		return a, err
	}
	if !okLo || !okHi {
		lo, hi = id, id // an old Slurm: the task alone is what is known
	}
	if id < lo || id > hi {
		return a, fmt.Errorf("--shard auto: %s=%d is outside the array %d-%d (%s, %s)", EnvSlurm, id, lo, hi, envSlurmMin, envSlurmMax)
	}
	a.min, a.max = lo, hi
	return a, nil
}

// whole reports whether the array runs every id from min to max.
func (a slurmArray) whole() bool {
	return (a.step == 0 || a.step == 1) && (a.count == 0 || a.count == a.max-a.min+1)
}

func slurmShard(v string, r shardRange, shards string, getenv func(string) string) (Spec, error) {
	a, err := readSlurmArray(v, getenv)
	if err != nil {
		return Spec{}, err
	}
	size := a.max - a.min + 1
	switch {
	case r.count == 0:
		// Only the array says what the shards are.
		if !a.whole() {
			return Spec{}, fmt.Errorf("--shard auto: the array %d-%d has gaps (%s=%d, %s=%d): run it as --array=0-%d or 1-%d, or give --shards", a.min, a.max, envSlurmCount, a.count, envSlurmStep, a.step, size-1, size)
		}
		if size > MaxShards {
			return Spec{}, fmt.Errorf("--shard auto: the array %d-%d has more than %d tasks", a.min, a.max, MaxShards)
		}
		return Spec{Index: a.id - a.min + 1, Count: size}, nil
	case r.hasFirst:
		last := r.first + r.count - 1
		if a.id < r.first || a.id > last {
			return Spec{}, fmt.Errorf("--shard auto: %s=%d is outside the array %d-%d (--shards %s)", EnvSlurm, a.id, r.first, last, shards)
		}
		if a.min < r.first || a.max > last {
			return Spec{}, fmt.Errorf("--shard auto: the task runs in the array %d-%d, which is not part of --shards %s", a.min, a.max, shards)
		}
		return Spec{Index: a.id - r.first + 1, Count: r.count}, nil
	}
	if a.whole() && size == r.count {
		return Spec{Index: a.id - a.min + 1, Count: r.count}, nil
	}
	// Part of an array (a task resubmitted alone): its ids must say
	// whether the whole array runs 0..N−1 or 1..N.
	fits0 := a.max <= r.count-1
	fits1 := a.min >= 1 && a.max <= r.count
	switch {
	case fits0 && fits1:
		return Spec{}, fmt.Errorf("--shard auto: %s=%d in the array %d-%d is shard %d of an array 0-%d or shard %d of an array 1-%d: say which with --shards 0-%d or --shards 1-%d",
			EnvSlurm, a.id, a.min, a.max, a.id+1, r.count-1, a.id, r.count, r.count-1, r.count)
	case fits0:
		return Spec{Index: a.id + 1, Count: r.count}, nil
	case fits1:
		return Spec{Index: a.id, Count: r.count}, nil
	}
	return Spec{}, fmt.Errorf("--shard auto: %s=%d is outside an array of %d shards (0-%d or 1-%d)", EnvSlurm, a.id, r.count, r.count-1, r.count)
}
