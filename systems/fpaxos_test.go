package systems

import (
	"slices"
	"testing"
)

func TestFPaxosRules(t *testing.T) {
	for _, tt := range []struct {
		name, text     string
		phase1, phase2 func(map[string]bool) bool
		safe           bool
	}{
		// Howard et al.'s example: 6 acceptors, phase 1 of 5, phase 2 of 2.
		{"sizes 5 and 2 of 6", "nodes: a b c d e f\nphase1: 5\nphase2: 2\n",
			func(l map[string]bool) bool { return len(l) >= 5 },
			func(l map[string]bool) bool { return len(l) >= 2 }, true},
		{"sizes 3 and 3 of 6", "nodes: 6\nphase1: 3\nphase2: 3\n",
			func(l map[string]bool) bool { return len(l) >= 3 }, nil, false},
		// A 2×3 grid: phase 1 a whole row... here phase 1 takes a column of
		// each... (rows {a b c}, {d e f}; columns {a d}, {b e}, {c f}):
		// phase 1 is a row, phase 2 a column; every row meets every column.
		{"grid rows and columns", "nodes: a, b, c, d, e, f\nphase1: {a b c} {d e f}\nphase2: {a d} {b e}\nphase2: {c f}\n",
			func(l map[string]bool) bool { return l["a"] && l["b"] && l["c"] || l["d"] && l["e"] && l["f"] },
			func(l map[string]bool) bool { return l["a"] && l["d"] || l["b"] && l["e"] || l["c"] && l["f"] }, true},
		{"list against size", "nodes: a b c d\nphase1: {a b} {c d}\nphase2: 3\n",
			func(l map[string]bool) bool { return l["a"] && l["b"] || l["c"] && l["d"] },
			func(l map[string]bool) bool { return len(l) >= 3 }, true},
		{"list against too small a size", "nodes: a b c d\nphase1: {a b} {c d}\nphase2: 2\n",
			func(l map[string]bool) bool { return l["a"] && l["b"] || l["c"] && l["d"] },
			func(l map[string]bool) bool { return len(l) >= 2 }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := parseOK(t, fpaxosFormat, tt.text)
			checkConfigShape(t, c)
			agreeOnAll(t, "phase 1", c.Reads, tt.phase1)
			if tt.phase2 == nil {
				if !c.IsCoterie() {
					t.Error("equal phases, two rules")
				}
				tt.phase2 = tt.phase1
			}
			agreeOnAll(t, "phase 2", c.Writes, tt.phase2)
			safe := safeByBruteForce(t, c)
			if safe != tt.safe {
				t.Errorf("brute force: safe = %v, want %v", safe, tt.safe)
			}
			if hasNote(c, "need not meet") == safe {
				t.Errorf("safe = %v, notes %q", safe, c.Notes)
			}
		})
	}
}

func TestFPaxosNotes(t *testing.T) {
	for _, tt := range []struct {
		text  string
		notes []string
	}{
		{"nodes: a b c d e f\nphase1: 5\nphase2: 2\n", []string{
			"replication (phase 2) survives 4 failures, leader election (phase 1) 1 failure: 2 failures stop leader election"}},
		{"nodes: 6\nphase1: 3\nphase2: 3\n", []string{
			"phase-1 and phase-2 quorums need not meet: 3 + 3 is not more than 6 nodes (a leader elected by 1, 2, 3 can miss a value accepted by 4, 5, 6)"}},
		{"nodes: 5\nphase1: 2\nphase2: 4\n", []string{
			"replication (phase 2) survives 1 failure, leader election (phase 1) 3 failures: 2 failures stop replication",
			"phase-2 quorums (4) are larger than phase-1 quorums (2): phase 2 runs for every value, phase 1 only on a change of leader; swapping them keeps the intersection and makes the common case cheaper"}},
	} {
		c := parseOK(t, fpaxosFormat, tt.text)
		var got []string
		for _, n := range c.Notes {
			got = append(got, n.Text)
		}
		if !slices.Equal(got, tt.notes) {
			t.Errorf("%q: notes %q, want %q", tt.text, got, tt.notes)
		}
	}
}

func TestFPaxosErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "no nodes"},
		{"nodes: 3\n", "no phase1"},
		{"nodes: 3\nphase1: 2\n", "no phase2"},
		{"phase1: 2\nnodes: 3\n", "test.conf:1: phase1 before nodes"},
		{"nodes: 3\nnodes: 4\n", "test.conf:2: nodes given twice (first at line 1)"},
		{"nodes: a b a\n", "test.conf:1: node a named twice"},
		{"nodes: 3\nphase1: 2\nphase1: 3\nphase2: 2\n", "test.conf:3: phase1 given twice (first at line 2)"},
		{"nodes: 3\nphase1: 4\nphase2: 2\n", "test.conf:2: phase1: a quorum of 4 nodes out of 3"},
		{"nodes: 3\nphase1: 0\nphase2: 2\n", "a quorum of 0 nodes"},
		{"nodes: 3\nphase1: most\nphase2: 2\n", "want a quorum size or quorums in braces"},
		{"nodes: a b\nphase1: {a c}\nphase2: 2\n", "test.conf:2: phase1: unknown node c (not in nodes)"},
		{"nodes: a b\nphase1: {a a}\nphase2: 2\n", "node a twice in a quorum"},
		{"nodes: a b\nphase1: {}\nphase2: 2\n", "an empty quorum"},
		{"nodes: a b\nphase1: {a b\nphase2: 2\n", "not closed"},
		{"nodes: a b\nphase1: {a} b\nphase2: 2\n", "want a quorum in braces"},
		{"nodes: a b\nphase1: 1\nphase3: 2\n", `test.conf:3: unknown key "phase3"`},
		{"nodes: 0\n", "want 1 to 1024 nodes"},
		{"nodes: a b\nphase1 2\n", "test.conf:2: want key: value"},
	} {
		wantSyntaxError(t, fpaxosFormat, tt.text, tt.want)
	}
}

func TestFPaxosSniff(t *testing.T) {
	if !sniffFPaxos("x", []byte("nodes: 3\nphase1: 2\nphase2: 2\n")) {
		t.Error("not recognised")
	}
	for _, s := range []string{"1 2\n2 3\n", "# phase1: 2\n1 2\n", `{"format": "coterie/1"}`} {
		if sniffFPaxos("x", []byte(s)) {
			t.Errorf("%q recognised", s)
		}
	}
}

func FuzzFPaxos(f *testing.F) {
	f.Add("nodes: a b c d e f\nphase1: 5\nphase2: 2\n")
	f.Add("nodes: a, b, c, d\nphase1: {a b} {c d}\nphase2: {a c}, {b d}\n")
	f.Add("nodes: 4\nphase1: {1 2 3}\nphase2: 2\n")
	f.Fuzz(func(t *testing.T, text string) {
		sniffFPaxos("f", []byte(text))
		c, err := parseFPaxos("f", []byte(text))
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		checkConfigShape(t, c)
		if c.N() <= 10 {
			safe := safeByBruteForce(t, c)
			if hasNote(c, "need not meet") == safe {
				t.Fatalf("safe = %v, notes %q", safe, c.Notes)
			}
		}
	})
}
