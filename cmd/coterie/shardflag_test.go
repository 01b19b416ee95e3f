package main

import (
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/shard"
)

func shardEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		spec   string
		shards int
		env    map[string]string
		want   shard.Spec
		err    string
	}{
		{spec: "1/1", want: shard.Spec{Index: 1, Count: 1}},
		{spec: "3/7", want: shard.Spec{Index: 3, Count: 7}},
		{spec: " 2 / 4 ", want: shard.Spec{Index: 2, Count: 4}},
		{spec: "0/7", err: "1 ≤ I ≤ N"},
		{spec: "8/7", err: "1 ≤ I ≤ N"},
		{spec: "1/0", err: "1 ≤ I ≤ N"},
		{spec: "-1/3", err: "1 ≤ I ≤ N"},
		{spec: "3", err: "want I/N"},
		{spec: "a/b", err: "want I/N"},
		{spec: "1/2", shards: 2, err: "--shards goes with --shard auto"},
		{spec: "auto", err: "needs --shards"},
		{spec: "auto", shards: 4, err: "neither"},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvKubernetes: "0"}, want: shard.Spec{Index: 1, Count: 4}},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvKubernetes: "3", shard.EnvSlurm: "1"}, want: shard.Spec{Index: 4, Count: 4}},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvKubernetes: "4"}, err: "not an index 0..3"},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvSlurm: "4"}, want: shard.Spec{Index: 4, Count: 4}},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvSlurm: "0"}, err: "not an index 1..4"},
		{spec: "auto", shards: 4, env: map[string]string{shard.EnvSlurm: "x"}, err: "not an index 1..4"},
	} {
		got, err := parseShard(c.spec, c.shards, shardEnv(c.env))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("parseShard(%q, %d, %v) = %v, %v; want error %q", c.spec, c.shards, c.env, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("parseShard(%q, %d, %v) = %v, %v; want %v", c.spec, c.shards, c.env, got, err, c.want)
		}
	}
}
