package systems

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// rs builds an rs.conf() document from member objects' insides, one per
// line, and a write concern ("" for none).
func rs(wc string, members ...string) string {
	var b strings.Builder
	b.WriteString("{\n  \"_id\": \"rs0\",\n  \"version\": 1,\n  \"members\": [\n")
	for i, m := range members {
		sep := ","
		if i == len(members)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    {\"_id\": %d, %s}%s\n", i, m, sep)
	}
	b.WriteString("  ]")
	if wc != "" {
		b.WriteString(",\n  \"writeConcern\": " + wc)
	}
	b.WriteString("\n}\n")
	return b.String()
}

func TestMongoDBRules(t *testing.T) {
	n := func(l map[string]bool, hosts ...string) int {
		c := 0
		for _, h := range hosts {
			if l[h] {
				c++
			}
		}
		return c
	}
	for _, tt := range []struct {
		name          string
		text          string
		reads, writes func(map[string]bool) bool // writes nil: the same rule
		safe          bool
	}{
		{"PSS majority", rs(`{"w": "majority"}`, `"host": "a"`, `"host": "b"`, `"host": "c"`),
			func(l map[string]bool) bool { return len(l) >= 2 }, nil, true},
		// MongoDB 5.0's implicit default for P-S-A is w: 1 (its docs' table:
		// 2 non-arbiters, 1 arbiter, majority 2).
		{"PSA implicit w:1", rs("", `"host": "p"`, `"host": "s"`, `"host": "arb", "arbiterOnly": true`),
			func(l map[string]bool) bool { return len(l) >= 2 },
			func(l map[string]bool) bool { return n(l, "p", "s") >= 1 }, false},
		// The calculated majority is min(2 voting, 2 data-bearing voting).
		{"PSA majority", rs(`{"w": "majority", "wtimeout": 0}`, `"host": "p"`, `"host": "s"`, `"host": "arb", "arbiterOnly": true, "priority": 0`),
			func(l map[string]bool) bool { return len(l) >= 2 },
			func(l map[string]bool) bool { return n(l, "p", "s") == 2 }, true},
		// P-A-A: only p can be primary; the calculated majority is 1.
		{"PAA majority", rs(`{"w": "majority"}`, `"host": "p"`, `"host": "a1", "arbiterOnly": true`, `"host": "a2", "arbiterOnly": true`),
			func(l map[string]bool) bool { return l["p"] && len(l) >= 2 },
			func(l map[string]bool) bool { return l["p"] }, true},
		// Two non-voting members: they count for w: 3 but not for
		// elections or w: "majority".
		{"non-voting w:3", rs(`{"w": 3}`, `"host": "a"`, `"host": "b"`, `"host": "c"`,
			`"host": "n1", "votes": 0, "priority": 0`, `"host": "n2", "votes": 0, "priority": 0`),
			func(l map[string]bool) bool { return n(l, "a", "b", "c") >= 2 },
			func(l map[string]bool) bool { return len(l) >= 3 && n(l, "a", "b", "c") >= 1 }, false},
		{"non-voting majority", rs(`{"w": "majority"}`, `"host": "a"`, `"host": "b"`, `"host": "c"`,
			`"host": "n1", "votes": 0, "priority": 0`),
			func(l map[string]bool) bool { return n(l, "a", "b", "c") >= 2 },
			func(l map[string]bool) bool { return n(l, "a", "b", "c") >= 2 }, true},
		// Only a can become primary: an election and a write both need it.
		{"one electable", rs(`{"w": "majority"}`, `"host": "a"`, `"host": "b", "priority": 0`, `"host": "c", "priority": 0, "hidden": true`),
			func(l map[string]bool) bool { return l["a"] && len(l) >= 2 }, nil, true},
		{"four voters", rs(`{"w": "majority"}`, `"host": "a"`, `"host": "b"`, `"host": "c"`, `"host": "d"`),
			func(l map[string]bool) bool { return len(l) >= 3 }, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := parseOK(t, mongodbFormat, tt.text)
			checkConfigShape(t, c)
			agreeOnAll(t, "elections", c.Reads, tt.reads)
			if tt.writes == nil {
				if !c.IsCoterie() {
					t.Errorf("one rule expected, two given")
				}
				tt.writes = tt.reads
			}
			agreeOnAll(t, "writes", c.Writes, tt.writes)
			safe := safeByBruteForce(t, c)
			if safe != tt.safe {
				t.Errorf("brute force: safe = %v, want %v", safe, tt.safe)
			}
			if warned := hasNote(c, "rolled back"); warned == safe {
				t.Errorf("safe = %v, notes %q", safe, c.Notes)
			}
		})
	}
}

func TestMongoDBNotes(t *testing.T) {
	for _, tt := range []struct{ text, first string }{
		{rs("", `"host": "p"`, `"host": "s"`, `"host": "arb", "arbiterOnly": true`),
			"w: 1 writes can be rolled back: an election by s, arb can miss a write acknowledged by p"},
		{rs(`{"w": "majority"}`, `"host": "p"`, `"host": "s"`, `"host": "arb", "arbiterOnly": true`),
			`w: "majority" needs all 2 data-bearing voting members: any one of them down stops these writes (an arbiter votes but cannot acknowledge)`},
		{rs(`{"w": "majority"}`, `"host": "a"`, `"host": "b"`, `"host": "c"`, `"host": "d"`),
			"4 voting members: an election needs 3, which survives 1 failure, as 3 voters do; an even number of voters buys no resilience over one fewer"},
	} {
		c := parseOK(t, mongodbFormat, tt.text)
		if len(c.Notes) == 0 || c.Notes[0].Text != tt.first {
			t.Errorf("notes %q, want first %q", c.Notes, tt.first)
		}
	}
}

func TestMongoDBDomainsAndEJSON(t *testing.T) {
	text := `{"_id": "rs0", "version": {"$numberInt": "3"}, "protocolVersion": {"$numberLong": "1"},
  "members": [
    {"_id": {"$numberInt": "0"}, "host": "m0:27017", "arbiterOnly": false, "buildIndexes": true, "hidden": false,
     "priority": {"$numberDouble": "2.0"}, "tags": {"dc": "east", "rack": "r1"}, "secondaryDelaySecs": {"$numberLong": "0"}, "votes": 1},
    {"_id": 1, "host": "m1:27017", "tags": {"dc": "east", "rack": "r2"}},
    {"_id": 2, "host": "m2:27017", "tags": {"dc": "west"}}
  ],
  "settings": {"chainingAllowed": true, "getLastErrorDefaults": {"w": 1, "wtimeout": 0}, "replicaSetId": {"$oid": "5f1e"}}
}`
	if !sniffMongoDB("x", []byte(text)) {
		t.Fatal("not recognised")
	}
	c := parseOK(t, mongodbFormat, text)
	if want := []string{"east/r1", "east/r2", "west"}; !slices.Equal(c.Domains, want) {
		t.Errorf("domains %q, want %q", c.Domains, want)
	}
	if want := []string{"m0:27017", "m1:27017", "m2:27017"}; !slices.Equal(c.Labels, want) {
		t.Errorf("labels %q, want %q", c.Labels, want)
	}
	if c.IsCoterie() || !hasNote(c, "w: 1 writes can be rolled back") {
		t.Errorf("getLastErrorDefaults w: 1 not read: notes %q", c.Notes)
	}
}

func TestMongoDBErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{`[]`, "test.conf:1: want rs.conf()'s object, not an array"},
		{"{\n\"members\": [\n{\"_id\": 0, \"host\": \"a\"},\n{\"_id\": 0, \"host\": \"b\"}]}", "test.conf:4: member _id 0 given twice (first at line 3)"},
		{rs("", `"host": "a"`, `"host": "a"`), "test.conf:6: host a given twice (first at line 5)"},
		{rs("", `"host": "a", "colour": "red"`), `test.conf:5: unknown member key "colour"`},
		{"{\n\"members\": [{\"_id\": 0, \"host\": \"a\"}],\n\"flavour\": 1}", `test.conf:3: unknown key "flavour"`},
		{rs(`{"w": "dcs"}`, `"host": "a"`), `w: "dcs": tag-set write concerns are not read`},
		{rs(`{"w": 0}`, `"host": "a"`), "w: 0 asks for no acknowledgement"},
		{rs(`{"w": 3}`, `"host": "a"`, `"host": "b"`, `"host": "arb", "arbiterOnly": true`), "w: 3, but only 2 members hold data"},
		{rs(`{"w": 1, "x": 2}`, `"host": "a"`), `unknown write concern key "x"`},
		{rs("", `"host": "a", "votes": 2`), "test.conf:5: member votes: want 0 or 1"},
		{rs("", `"host": "a", "priority": -1`), "member priority: want a number from 0 to 1000"},
		{rs("", `"host": "a"`, `"host": "b", "votes": 0`), "member b: a non-voting member must have priority 0"},
		{rs("", `"host": "a"`, `"host": "b", "hidden": true`), "member b: a hidden member must have priority 0"},
		{rs("", `"host": "a"`, `"host": "b", "priority": 0, "arbiterOnly": true, "votes": 0`), "member b: an arbiter must vote"},
		{rs("", `"host": "a"`, `"host": "b", "arbiterOnly": true, "priority": 1`), "member b: an arbiter's priority must be 0"},
		{rs("", `"host": "a", "priority": 0`), "no member can become primary"},
		{rs("", `"host": "a"`, `"host": "b"`, `"host": "c"`, `"host": "d"`, `"host": "e"`, `"host": "f"`, `"host": "g"`, `"host": "h"`), "test.conf:12: more than 7 voting members"},
		{`{"members": []}`, "no members"},
		{"{\"members\": [{\"_id\": 0, \"host\": \"a\"}], \"members\": []}", `key "members" given twice`},
		{"{\"members\": [{\"_id\": 0, \"host\": \"a\"}]} {}", "unexpected data after the JSON value"},
		{"{\n\"members\": [\n{\"_id\": 0, \"host\": \"a\",}]}", "test.conf:3: JSON"},
		{"{\"members\": [{\"_id\": 0, \"host\": \"a\"}", "unexpected end of input"},
	} {
		wantSyntaxError(t, mongodbFormat, tt.text, tt.want)
	}
}

func TestMongoDBSniff(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{rs("", `"host": "a"`), true},
		{`{"format": "coterie/1", "n": 3, "quorums": [[1, 2]]}`, false},
		{`{"header": {"cluster_id": 1}, "members": [{"ID": 1, "name": "a", "peerURLs": ["http://host:2380"]}]}`, false},
		{"1 2\n", false},
	} {
		if got := sniffMongoDB("f", []byte(tt.text)); got != tt.want {
			t.Errorf("sniff(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func FuzzMongoDB(f *testing.F) {
	f.Add(rs("", `"host": "p"`, `"host": "s"`, `"host": "arb", "arbiterOnly": true`))
	f.Add(rs(`{"w": 3}`, `"host": "a"`, `"host": "b"`, `"host": "c"`, `"host": "n1", "votes": 0, "priority": 0`))
	f.Add(rs(`{"w": "majority"}`, `"host": "a", "tags": {"dc": "x"}`, `"host": "b", "priority": 0, "hidden": true, "tags": {"dc": "y"}`))
	f.Fuzz(func(t *testing.T, text string) {
		sniffMongoDB("f", []byte(text))
		c, err := parseMongoDB("f", []byte(text))
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		checkConfigShape(t, c)
		if c.N() <= 10 {
			safe := safeByBruteForce(t, c)
			if hasNote(c, "rolled back") == safe {
				t.Fatalf("safe = %v, notes %q", safe, c.Notes)
			}
		}
	})
}
