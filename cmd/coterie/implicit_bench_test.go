package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// go test ./cmd/coterie -run '^$' -bench 'ImplicitAvailability' -benchtime 10x
//
// The whole command `coterie availability FILE --p 0.9 --json` on implicit
// files as `coterie generate` writes them: the binary tree of height 10
// (2047 nodes, 2^1024 − 1 quorums) and the CWlog wall over 1,000 nodes.
func BenchmarkImplicitAvailability(b *testing.B) {
	dir := b.TempDir()
	for _, c := range []struct {
		name string
		gen  []string
	}{
		{"tree-h10", []string{"generate", "tree", "--height", "10"}},
		{"cwlog-1000", []string{"generate", "wall", "--cwlog", "--n", "1000"}},
	} {
		path := filepath.Join(dir, c.name+".json")
		cli(b, append(c.gen, "-o", path)...)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if out := cli(b, "availability", path, "--p", "0.9", "--format", "json"); !strings.Contains(out, `"exact": true`) {
					b.Fatalf("not exact: %s", out)
				}
			}
		})
	}
}

// cli runs coterie with args in-process and returns its standard output,
// failing on a non-zero exit.
func cli(b *testing.B, args ...string) string {
	b.Helper()
	var out, errs strings.Builder
	if rc := run(context.Background(), args, &streams{in: strings.NewReader(""), out: &out, err: &errs}); rc != 0 {
		b.Fatalf("coterie %s: exit %d: %s", strings.Join(args, " "), rc, errs.String())
	}
	return out.String()
}
