package systems

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// etcd5 has the shape of `etcdctl member list -w json` (etcd 3.4): five
// voters and a learner; IDs beyond 2^53, as etcd's are.
const etcd5 = `{"header":{"cluster_id":17237436991929493444,"member_id":9372538179322589801,"raft_term":2},"members":[
{"ID":9372538179322589801,"name":"infra1","peerURLs":["http://127.0.0.1:12380"],"clientURLs":["http://127.0.0.1:2379"]},
{"ID":10501334649042878790,"name":"infra2","peerURLs":["http://127.0.0.1:22380"],"clientURLs":["http://127.0.0.1:22379"]},
{"ID":18249187646912138824,"name":"infra3","peerURLs":["http://127.0.0.1:32380"],"clientURLs":["http://127.0.0.1:32379"]},
{"ID":1,"name":"infra4","peerURLs":["http://127.0.0.1:42380"],"clientURLs":["http://127.0.0.1:42379"]},
{"ID":2,"name":"infra5","peerURLs":["http://127.0.0.1:52380"],"clientURLs":["http://127.0.0.1:52379"]},
{"ID":3,"name":"learner1","peerURLs":["http://127.0.0.1:62380"],"clientURLs":["http://127.0.0.1:62379"],"isLearner":true}
]}
`

func mustParseEtcd(t *testing.T, text string) *Config {
	t.Helper()
	c, err := etcdFormat.Parse("members.json", []byte(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	return c
}

func TestEtcdMemberList(t *testing.T) {
	c := mustParseEtcd(t, etcd5)
	if got := strings.Join(c.Labels, ","); got != "infra1,infra2,infra3,infra4,infra5" {
		t.Fatalf("labels %s", got)
	}
	zkEachSubset(5, func(live *set.Set, mask int) {
		k := 0
		for v := range 5 {
			k += mask >> v & 1
		}
		if got := c.Writes.HasQuorum(live); got != (k >= 3) {
			t.Errorf("%v: %v, want %v", live, got, k >= 3)
		}
	})
	if !strings.Contains(zkNotesText(c), "learner1 is a learner") {
		t.Errorf("notes:\n%s", zkNotesText(c))
	}
	// A member added but never started has no name: it is labelled by
	// its ID in hexadecimal and still counts as a voter.
	c = mustParseEtcd(t, `{"members":[{"ID":10,"name":"a","peerURLs":["http://h:1"]},{"ID":11,"name":"b","peerURLs":["http://h:2"]},{"ID":255,"peerURLs":["http://h:3"]},{"ID":12,"name":"c","peerURLs":["http://h:4"]}]}`)
	if got := strings.Join(c.Labels, ","); got != "a,b,ff,c" {
		t.Errorf("labels %s", got)
	}
	if c.Writes.HasQuorum(set.Of(0, 1)) || !c.Writes.HasQuorum(set.Of(0, 1, 3)) {
		t.Error("a majority of four is three")
	}
	if !strings.Contains(zkNotesText(c), "member ff has no name") || !strings.Contains(zkNotesText(c), "even number of voters (4)") {
		t.Errorf("notes:\n%s", zkNotesText(c))
	}
}

func TestEtcdText(t *testing.T) {
	c := mustParseEtcd(t, "# five voters\nvoters: a, b c\td e\nlearners: f g\n")
	if c.N() != 5 || c.Labels[4] != "e" {
		t.Fatalf("labels %v", c.Labels)
	}
	if !c.Writes.HasQuorum(set.Of(0, 2, 4)) || c.Writes.HasQuorum(set.Of(1, 3)) {
		t.Error("majority of five")
	}
}

// TestEtcdJoint checks joint consensus against its definition: a majority
// of the old voters and a majority of the new ones (Ongaro, "Consensus:
// bridging theory and practice", §4.3), by brute force.
func TestEtcdJoint(t *testing.T) {
	c := mustParseEtcd(t, "old: a b c\nnew: c d e f\nlearners: g\n")
	if got := strings.Join(c.Labels, ","); got != "a,b,c,d,e,f" {
		t.Fatalf("labels %s", got)
	}
	old, nw := []int{0, 1, 2}, []int{2, 3, 4, 5}
	count := func(nodes []int, live *set.Set) int {
		k := 0
		for _, v := range nodes {
			if live.Has(v) {
				k++
			}
		}
		return k
	}
	quorums := 0
	zkEachSubset(6, func(live *set.Set, _ int) {
		want := 2*count(old, live) > 3 && 2*count(nw, live) > 4
		if got := c.Writes.HasQuorum(live); got != want {
			t.Errorf("%v: %v, want %v", live, got, want)
		}
		if want {
			quorums++
		}
	})
	// {c} with one more old voter and two more new ones, or without c,
	// two old voters and three new ones.
	fam, err := c.Writes.Family(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fam.Quorums {
		q := &fam.Quorums[i]
		if count(old, q) != 2 || count(nw, q) != 3 {
			t.Errorf("minimal quorum %v: want 2 old and 3 new voters", q)
		}
	}
	// c with one of a, b and two of d, e, f: 2·3 = 6; without c: a, b and
	// all of d, e, f: 1.
	if len(fam.Quorums) != 7 {
		t.Errorf("%d minimal quorums, want 7", len(fam.Quorums))
	}
	// The old and the new majorities both hold: a set that is a majority
	// of only one is no quorum.
	if c.Writes.HasQuorum(set.Of(0, 1)) || c.Writes.HasQuorum(set.Of(3, 4, 5)) {
		t.Error("a majority of one side alone")
	}
}

func TestEtcdErrors(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"unknown text key", "voters: a b\nobservers: c\n", "m:2: want voters:, learners:, old: or new:"},
		{"twice", "voters: a\nvoters: b\n", "m:2: voters: given twice (first at line 1)"},
		{"repeated name", "voters: a b a\n", `m:1: voters: "a" is listed twice`},
		{"voters and old", "voters: a\nold: a\nnew: b\n", "m:2: old: with voters: (line 1)"},
		{"old alone", "old: a b\n", "m:1: old: without new:"},
		{"new alone", "\nnew: a b\n", "m:2: new: without old:"},
		{"no voters", "learners: a\n", "m: no voters: line"},
		{"empty voters", "voters:\n", "m:1: voters: no names"},
		{"learner voter", "voters: a b\nlearners: b\n", `m:2: "b" is a learner and a voter`},
		{"json syntax", "{\"members\": [\n{\"ID\": 1,}\n]}", "m:2: "},
		{"json unknown member key", "{\"members\": [\n{\"ID\": 1, \"name\": \"a\"},\n  {\"ID\": 2, \"nmae\": \"b\"}]}", `m:3: member: json: unknown field "nmae"`},
		{"json duplicate ID", "{\"members\": [\n{\"ID\": 7, \"name\": \"a\"},\n{\"ID\": 7, \"name\": \"b\"}]}", "m:3: member ID 7 is listed twice (first at line 2)"},
		{"json duplicate name", "{\"members\": [\n{\"ID\": 7, \"name\": \"a\"},\n{\"ID\": 8, \"name\": \"a\"}]}", `m:3: member name "a" is used twice`},
		{"json bad ID", "{\"members\": [{\"ID\": -1, \"name\": \"a\"}]}", `m:1: member ID "-1"`},
		{"json learners only", "{\"members\": [{\"ID\": 1, \"isLearner\": true}]}", "m: no voting member"},
		{"json unknown key", "{\"header\": {},\n\"member\": []}", `m:2: unknown key "member"`},
		{"json no members", "{\"header\": {}}", `m: no "members"`},
		{"json truncated", "{\"members\": [{\"ID\": 1", "m:1: "},
		{"json trailing", "{\"members\": [{\"ID\": 1}]}\n{}", "m:2: more after the JSON object"},
		{"json not list", "{\"members\": 3}", `m:1: "members": want a list`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := etcdFormat.Parse("m", []byte(tt.text))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %q\nwant prefix %q", err, tt.want)
			}
		})
	}
}

func TestEtcdSniff(t *testing.T) {
	for _, tt := range []struct {
		data string
		want bool
	}{
		{etcd5, true},
		{"# cluster\nvoters: a b c\n", true},
		{"old: a\nnew: b\n", true},
		{`{"_id": "rs0", "members": [{"_id": 0, "host": "a:27017", "votes": 1}]}`, false},
		{"server.1=a:1:2\n", false},
		{"1 2 3\n", false},
		{`{"format": "coterie/1", "n": 3, "quorums": [[1, 2]]}`, false},
	} {
		if got := etcdFormat.Sniff("x", []byte(tt.data)); got != tt.want {
			t.Errorf("Sniff(%q) = %v", tt.data, got)
		}
	}
}

func TestEtcdRoundTrip(t *testing.T) {
	for _, text := range []string{etcd5, "old: a b c\nnew: c d e f\nlearners: g\n", "voters: x\n"} {
		r, _, err := readRaft("in", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.Write(&b); err != nil {
			t.Fatal(err)
		}
		back, _, err := readRaft("back", b.Bytes())
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		raftEqual(t, r, back)
	}
}

func raftEqual(t *testing.T, a, b *Raft) {
	t.Helper()
	if strings.Join(a.Voters, " ") != strings.Join(b.Voters, " ") || strings.Join(a.Learners, " ") != strings.Join(b.Learners, " ") {
		t.Fatalf("members changed: %+v -> %+v", a, b)
	}
	n := len(a.Voters)
	if n > 12 {
		return
	}
	zkEachSubset(n, func(live *set.Set, _ int) {
		if a.Has(live) != b.Has(live) {
			t.Fatalf("%v: verdict changed: %+v -> %+v", live, a, b)
		}
	})
}

func FuzzEtcd(f *testing.F) {
	f.Add([]byte(etcd5))
	f.Add([]byte("voters: a b c\nlearners: d\n"))
	f.Add([]byte("old: a b c\nnew: c d\n"))
	f.Add([]byte(`{"members":[{"ID":10,"name":"a"},{"ID":255}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, err := readRaft("fuzz", data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		if _, err := etcdFormat.Parse("fuzz", data); err != nil {
			t.Fatalf("readRaft read it but Parse did not: %v", err)
		}
		var b bytes.Buffer
		if err := r.Write(&b); err != nil {
			return // a name the text form cannot hold
		}
		back, _, err := readRaft("back", b.Bytes())
		if err != nil {
			t.Fatalf("written text not read back: %v\n%s", err, b.String())
		}
		raftEqual(t, r, back)
	})
}
