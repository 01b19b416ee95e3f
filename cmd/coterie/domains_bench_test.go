package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// go test ./cmd/coterie -run '^$' -bench 'Domains300' -benchtime 3x
//
// Whole `coterie availability` commands on 300 nodes in 3 regions × 3
// zones × 4 racks (36 racks, 8 or 9 nodes each, round-robin), regions up
// with probability 0.9999, zones 0.9995, racks 0.999, nodes 0.999.

// domains300 writes nodes.csv and domains.csv of that placement into dir.
func domains300(b testing.TB, dir string) (nodes, domains string) {
	var nb, db strings.Builder
	nb.WriteString("node,domain\n")
	db.WriteString("domain,p\n")
	seen := map[string]bool{}
	for v := range 300 {
		r := v % 36
		reg, zone, rack := fmt.Sprintf("r%d", r/12), fmt.Sprintf("r%d/z%d", r/12, r/4%3), fmt.Sprintf("r%d/z%d/k%d", r/12, r/4%3, r%4)
		fmt.Fprintf(&nb, "%d,%s\n", v+1, rack)
		for _, x := range []struct{ d, p string }{{reg, "0.9999"}, {zone, "0.9995"}, {rack, "0.999"}} {
			if !seen[x.d] {
				seen[x.d] = true
				fmt.Fprintf(&db, "%s,%s\n", x.d, x.p)
			}
		}
	}
	nodes, domains = filepath.Join(dir, "nodes.csv"), filepath.Join(dir, "domains.csv")
	if err := os.WriteFile(nodes, []byte(nb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(domains, []byte(db.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return nodes, domains
}

// runBench runs one whole command and fails unless it exits 0.
func runBench(b *testing.B, args ...string) {
	var out, errs strings.Builder
	if rc := run(context.Background(), args, &streams{in: strings.NewReader(""), out: &out, err: &errs}); rc != 0 {
		b.Fatalf("exit %d: %s%s", rc, out.String(), errs.String())
	}
}

func BenchmarkDomains300(b *testing.B) {
	dir := b.TempDir()
	nodes, domains := domains300(b, dir)
	maj := filepath.Join(dir, "maj300.json")
	if err := os.WriteFile(maj, []byte(`{"format": "coterie/1", "kind": "majority", "params": {"n": 300}, "n": 300, "k": 1, "threshold": 151}`), 0o644); err != nil {
		b.Fatal(err)
	}
	// Weighted voting: weights 1, 2, 3 in turn (600 votes), more than
	// half needed; a node of weight w appears w times.
	var votes []string
	for v := 1; v <= 300; v++ {
		for range 1 + (v-1)%3 {
			votes = append(votes, fmt.Sprint(v))
		}
	}
	vote := "choose(301, " + strings.Join(votes, ", ") + ")"
	// HQC along the tree: a majority of regions of a majority of zones
	// of a majority of racks of a majority of the rack's nodes.
	choose := func(k int, args []string) string { return fmt.Sprintf("choose(%d, %s)", k, strings.Join(args, ", ")) }
	var regions []string
	for reg := range 3 {
		var zones []string
		for z := range 3 {
			var racks []string
			for k := range 4 {
				var nodes []string
				for v := reg*12 + z*4 + k; v < 300; v += 36 {
					nodes = append(nodes, fmt.Sprint(v+1))
				}
				racks = append(racks, choose(len(nodes)/2+1, nodes))
			}
			zones = append(zones, choose(3, racks))
		}
		regions = append(regions, choose(2, zones))
	}
	hqc := choose(2, regions)
	// Read-write: reads any 100 of the 300, writes any 201; reads 200
	// of the 600 votes, writes 401.
	var all []string
	for v := 1; v <= 300; v++ {
		all = append(all, fmt.Sprint(v))
	}
	cases := []struct {
		name string
		args []string
	}{
		{"majority-file", []string{maj}},
		{"vote", []string{"--reads", vote}},
		{"hqc-tree", []string{"--reads", hqc}},
		{"hqc-tree-rw", []string{"--reads", hqc, "--writes", hqc}},
		{"threshold-rw", []string{"--reads", choose(100, all), "--writes", choose(201, all)}},
		{"vote-rw", []string{"--reads", strings.Replace(vote, "301", "200", 1), "--writes", strings.Replace(vote, "301", "401", 1)}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			args := append([]string{"availability"}, c.args...)
			args = append(args, "--nodes", nodes, "--domains", domains, "--p", "0.999")
			for b.Loop() {
				runBench(b, args...)
			}
		})
	}
}
