package shard

import (
	"strconv"
	"strings"
	"testing"
)

func shardEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// slurm is the environment of task id of the array lo-hi, as sbatch sets
// it for --array=lo-hi.
func slurm(id, lo, hi string, count string) map[string]string {
	return map[string]string{EnvSlurm: id, envSlurmMin: lo, envSlurmMax: hi, envSlurmCount: count, envSlurmStep: "1"}
}

func TestAuto(t *testing.T) {
	k8s := func(i string) map[string]string { return map[string]string{EnvKubernetes: i} }
	for _, c := range []struct {
		name   string
		spec   string
		shards string
		env    map[string]string
		want   Spec
		err    string
	}{
		{spec: "auto", shards: "4", err: "neither"},
		{spec: "auto", shards: "0", err: "want N"},
		{spec: "auto", shards: "x", err: "want N"},
		{spec: "auto", shards: "7-3", err: "want N"},
		{spec: "auto", shards: "2000000", err: "at most"},
		{name: "k8s", spec: "auto", shards: "4", env: k8s("0"), want: Spec{Index: 1, Count: 4}},
		{name: "k8s first", spec: "auto", shards: "4", env: map[string]string{EnvKubernetes: "3", EnvSlurm: "1"}, want: Spec{Index: 4, Count: 4}},
		{name: "k8s range", spec: "auto", shards: "0-3", env: k8s("2"), want: Spec{Index: 3, Count: 4}},
		{name: "k8s outside", spec: "auto", shards: "4", env: k8s("4"), err: "outside the Job's indices 0-3"},
		{name: "k8s no N", spec: "auto", env: k8s("1"), err: "give --shards N"},
		{name: "k8s bad", spec: "auto", shards: "4", env: k8s("x"), err: "not a number"},
		{name: "slurm 0-based", spec: "auto", env: slurm("0", "0", "2", "3"), want: Spec{Index: 1, Count: 3}},
		{name: "slurm 0-based last", spec: "auto", env: slurm("2", "0", "2", "3"), want: Spec{Index: 3, Count: 3}},
		{name: "slurm 1-based", spec: "auto", env: slurm("1", "1", "3", "3"), want: Spec{Index: 1, Count: 3}},
		{name: "slurm 1-based last", spec: "auto", env: slurm("3", "1", "3", "3"), want: Spec{Index: 3, Count: 3}},
		{name: "slurm with N", spec: "auto", shards: "3", env: slurm("0", "0", "2", "3"), want: Spec{Index: 1, Count: 3}},
		{name: "slurm with range", spec: "auto", shards: "1-3", env: slurm("2", "1", "3", "3"), want: Spec{Index: 2, Count: 3}},
		{name: "slurm gaps", spec: "auto", env: slurm("3", "1", "5", "3"), err: "has gaps"},
		{name: "slurm step", spec: "auto", env: map[string]string{EnvSlurm: "3", envSlurmMin: "1", envSlurmMax: "5", envSlurmStep: "2"}, err: "has gaps"},
		{name: "slurm bad id", spec: "auto", env: slurm("x", "0", "2", "3"), err: "not a task id"},
		{name: "slurm bad min", spec: "auto", env: slurm("1", "y", "2", "3"), err: "SLURM_ARRAY_TASK_MIN"},
		{name: "slurm id outside its array", spec: "auto", env: slurm("5", "0", "2", "3"), err: "outside the array 0-2"},
		{name: "resubmitted, range", spec: "auto", shards: "0-7", env: slurm("5", "5", "5", "1"), want: Spec{Index: 6, Count: 8}},
		{name: "resubmitted, range 1", spec: "auto", shards: "1-8", env: slurm("5", "5", "5", "1"), want: Spec{Index: 5, Count: 8}},
		{name: "resubmitted, id 0", spec: "auto", shards: "8", env: slurm("0", "0", "0", "1"), want: Spec{Index: 1, Count: 8}},
		{name: "resubmitted, id N", spec: "auto", shards: "8", env: slurm("8", "8", "8", "1"), want: Spec{Index: 8, Count: 8}},
		{name: "resubmitted, ambiguous", spec: "auto", shards: "8", env: slurm("5", "5", "5", "1"), err: "say which with --shards 0-7 or --shards 1-8"},
		{name: "resubmitted, outside", spec: "auto", shards: "8", env: slurm("9", "9", "9", "1"), err: "outside an array of 8 shards"},
		{name: "range, outside", spec: "auto", shards: "0-7", env: slurm("8", "8", "8", "1"), err: "outside the array 0-7"},
		{name: "range, other array", spec: "auto", shards: "1-3", env: slurm("1", "0", "2", "3"), err: "not part of --shards 1-3"},
		{name: "old slurm", spec: "auto", shards: "4", env: map[string]string{EnvSlurm: "4"}, want: Spec{Index: 4, Count: 4}},
		{name: "old slurm 0", spec: "auto", shards: "4", env: map[string]string{EnvSlurm: "0"}, want: Spec{Index: 1, Count: 4}},
		{name: "whole array of another size", spec: "auto", shards: "4", env: slurm("2", "1", "3", "3"), err: "say which"},
	} {
		got, err := Auto(c.shards, shardEnv(c.env))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: Auto(%q, %v) = %v, %v; want error %q", c.name, c.shards, c.env, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: Auto(%q, %v) = %v, %v; want %v", c.name, c.shards, c.env, got, err, c.want)
		}
	}
}

// Every task of an array, 0- or 1-based, gets a different shard, and
// together they are every shard once.
func TestAutoArrays(t *testing.T) {
	for _, first := range []int{0, 1} {
		for n := 1; n <= 9; n++ {
			seen := make([]bool, n+1)
			for id := first; id < first+n; id++ {
				env := slurm(strconv.Itoa(id), strconv.Itoa(first), strconv.Itoa(first+n-1), strconv.Itoa(n))
				sp, err := Auto("", shardEnv(env))
				if err != nil || sp.Count != n || seen[sp.Index] {
					t.Fatalf("array %d-%d task %d: %v, %v", first, first+n-1, id, sp, err)
				}
				seen[sp.Index] = true
				// A task resubmitted alone, told the array, is the same
				again, err := Auto(strconv.Itoa(first)+"-"+strconv.Itoa(first+n-1), shardEnv(slurm(strconv.Itoa(id), strconv.Itoa(id), strconv.Itoa(id), "1")))
				if err != nil || again != sp {
					t.Fatalf("array %d-%d task %d resubmitted: %v, %v; want %v", first, first+n-1, id, again, err, sp)
				}
			}
		}
	}
}
