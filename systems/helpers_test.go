package systems

import (
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// liveLabels lists, for a live set, the labels of its nodes.
func liveLabels(labels []string, live *set.Set) map[string]bool {
	m := map[string]bool{}
	for v := range live.All() {
		m[labels[v]] = true
	}
	return m
}

// countLabelPrefix counts the live labels that start with prefix.
func countLabelPrefix(live map[string]bool, prefix string) int {
	n := 0
	for l := range live {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// agreeOnAll checks rule against want on every one of the 2^n live sets.
func agreeOnAll(t *testing.T, what string, r *quorum.Rule, want func(live map[string]bool) bool) {
	t.Helper()
	n := r.Nodes
	if n > 20 {
		t.Fatalf("%s: %d nodes is too many for brute force", what, n)
	}
	for mask := 0; mask < 1<<n; mask++ {
		live := set.New(n)
		for v := range n {
			if mask>>v&1 == 1 {
				live.Add(v)
			}
		}
		if got, w := r.Has(live), want(liveLabels(r.NodeNames, live)); got != w {
			t.Fatalf("%s: live %v: rule says %v, want %v", what, liveLabels(r.NodeNames, live), got, w)
		}
	}
}

// parseOK parses text in format f.
func parseOK(t *testing.T, f Format, text string) *Config {
	t.Helper()
	c, err := f.Parse("test.conf", []byte(text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

// checkConfigShape checks what every parsed configuration must be: labels and
// domains per node, a quorum of all nodes and none of no node, on each
// side.
func checkConfigShape(t *testing.T, c *Config) {
	t.Helper()
	n := c.N()
	if n <= 0 || len(c.Labels) != n || c.Writes.Nodes != n {
		t.Fatalf("nodes %d, labels %d, writes over %d", n, len(c.Labels), c.Writes.Nodes)
	}
	if c.Domains != nil && len(c.Domains) != n {
		t.Fatalf("%d domains for %d nodes", len(c.Domains), n)
	}
	seen := map[string]bool{}
	for _, l := range c.Labels {
		if seen[l] {
			t.Fatalf("label %q twice", l)
		}
		seen[l] = true
	}
	for _, r := range []*quorum.Rule{c.Reads, c.Writes} {
		if r.Has(set.New(n)) {
			t.Fatalf("no node at all holds a quorum")
		}
	}
	if (c.ReadExpr == nil) != (c.WriteExpr == nil) || c.IsCoterie() && c.ReadExpr != c.WriteExpr {
		t.Fatalf("expressions %v and %v", c.ReadExpr, c.WriteExpr)
	}
	if c.ReadExpr == nil || n > 14 {
		return
	}
	// The expressions decide as the rules do, on every live set.
	for mask := 0; mask < 1<<n; mask++ {
		live := set.New(n)
		for v := range n {
			if mask>>v&1 == 1 {
				live.Add(v)
			}
		}
		if c.ReadExpr.IsQuorum(live) != c.Reads.Has(live) || c.WriteExpr.IsQuorum(live) != c.Writes.Has(live) {
			t.Fatalf("live %v: expressions %v, %v disagree with the rules", live, c.ReadExpr, c.WriteExpr)
		}
	}
}

// minimalByLabel lists a rule's minimal quorums by labels.
func minimalByLabel(t *testing.T, r *quorum.Rule) []string {
	t.Helper()
	f, err := r.Family(t.Context(), 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := range f.Quorums {
		var ls []string
		for v := range f.Quorums[i].All() {
			ls = append(ls, r.NodeNames[v])
		}
		out = append(out, strings.Join(ls, " "))
	}
	return out
}

// wantSyntaxError checks that parsing text fails with a message holding want.
func wantSyntaxError(t *testing.T, f Format, text, want string) {
	t.Helper()
	_, err := f.Parse("test.conf", []byte(text))
	if err == nil {
		t.Fatalf("Parse(%q) succeeded, want an error with %q", text, want)
	}
	if _, ok := err.(*SyntaxError); !ok {
		t.Fatalf("Parse(%q): %T, want *SyntaxError", text, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("Parse(%q) = %q, want it to hold %q", text, err, want)
	}
}

// hasNote reports whether some note holds s.
func hasNote(c *Config, s string) bool {
	for _, n := range c.Notes {
		if strings.Contains(n.Text, s) {
			return true
		}
	}
	return false
}

// safeByBruteForce reports whether every minimal read quorum meets every minimal
// write quorum, pair by pair.
func safeByBruteForce(t *testing.T, c *Config) bool {
	t.Helper()
	r, err := c.Reads.Family(t.Context(), 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Writes.Family(t.Context(), 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Quorums {
		for j := range w.Quorums {
			if !set.Intersects(&r.Quorums[i], &w.Quorums[j]) {
				return false
			}
		}
	}
	return true
}
