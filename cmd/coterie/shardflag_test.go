package main

import (
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/shard"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		name   string
		spec   string
		shards string
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
		{spec: "1/2", shards: "2", err: "--shards goes with --shard auto"},
	} {
		got, err := parseShard(c.spec, c.shards, func(string) string { return "" })
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: parseShard(%q, %q) = %v, %v; want error %q", c.name, c.spec, c.shards, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: parseShard(%q, %q) = %v, %v; want %v", c.name, c.spec, c.shards, got, err, c.want)
		}
	}
}
