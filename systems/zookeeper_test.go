package systems

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// zkEachSubset calls fn with every subset of n nodes.
func zkEachSubset(n int, fn func(live *set.Set, mask int)) {
	for mask := 0; mask < 1<<n; mask++ {
		live := set.New(n)
		for v := range n {
			if mask>>v&1 == 1 {
				live.Add(v)
			}
		}
		fn(live, mask)
	}
}

func mustParseZK(t testing.TB, text string) *Config {
	t.Helper()
	c, err := zookeeperFormat.Parse("zoo.cfg", []byte(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	return c
}

// The administrator's guide's example: three groups of three servers, all
// of weight 1; "a quorum is formed by two servers from each of two
// groups" (ZooKeeper Administrator's Guide, Cluster Options, group.x).
const zk3x3 = `# ZooKeeper Administrator's Guide, group.x and weight.x
tickTime=2000
dataDir=/var/lib/zookeeper
clientPort=2181
initLimit=5
syncLimit=2
server.1=zoo1:2888:3888
server.2=zoo2:2888:3888
server.3=zoo3:2888:3888
server.4=zoo4:2888:3888
server.5=zoo5:2888:3888
server.6=zoo6:2888:3888
server.7=zoo7:2888:3888
server.8=zoo8:2888:3888
server.9=zoo9:2888:3888
group.1=1:2:3
group.2=4:5:6
group.3=7:8:9
weight.1=1
weight.2=1
weight.3=1
weight.4=1
weight.5=1
weight.6=1
weight.7=1
weight.8=1
weight.9=1
`

func TestZooKeeperDocumented3x3(t *testing.T) {
	c := mustParseZK(t, zk3x3)
	if c.N() != 9 || c.Labels[0] != "server.1" || c.Labels[8] != "server.9" || c.Domains[4] != "group.2" {
		t.Fatalf("n=%d labels=%v domains=%v", c.N(), c.Labels, c.Domains)
	}
	// Two servers from each of two groups, by hand.
	hand := func(mask int) bool {
		groups := 0
		for g := range 3 {
			k := 0
			for i := range 3 {
				k += mask >> (3*g + i) & 1
			}
			if k >= 2 {
				groups++
			}
		}
		return groups >= 2
	}
	zkEachSubset(9, func(live *set.Set, mask int) {
		if got := c.Writes.HasQuorum(live); got != hand(mask) {
			t.Errorf("live %v: HasQuorum=%v, want %v", live, got, hand(mask))
		}
	})
	f, err := c.Writes.Family(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	// C(3,2) pairs of groups, C(3,2)² pairs of servers in them.
	if len(f.Quorums) != 27 {
		t.Errorf("%d minimal quorums, want 27", len(f.Quorums))
	}
	for i := range f.Quorums {
		if f.Quorums[i].Len() != 4 {
			t.Errorf("quorum %v: want 4 servers", &f.Quorums[i])
		}
	}
	// The same ensemble as Kumar's hierarchical quorum consensus over
	// 3 groups of 3.
	hqc, err := construct.HQC([]int{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := quorum.Minimal(context.Background(), 9, quorum.Listed{F: hqc}.HasQuorum, 1000)
	if !zkSameQuorums(f, want) {
		t.Errorf("minimal quorums differ from HQC(3,3)")
	}
}

func TestZooKeeperMajorityAndObservers(t *testing.T) {
	c := mustParseZK(t, `server.1=a:2888:3888
server.2=b:2888:3888;2181
server.3 = c:2888:3888:participant;127.0.0.1:2181
server.7=d:2888:3888:observer
server.9=[::1]:2888:3888:observer;2181
version=100000000
`)
	if c.N() != 3 || strings.Join(c.Labels, ",") != "server.1,server.2,server.3" {
		t.Fatalf("labels %v", c.Labels)
	}
	zkEachSubset(3, func(live *set.Set, _ int) {
		if got := c.Writes.HasQuorum(live); got != (live.Len() >= 2) {
			t.Errorf("%v: %v", live, got)
		}
	})
	if !strings.Contains(zkNotesText(c), "server.7 is an observer") || !strings.Contains(zkNotesText(c), "server.9 is an observer") {
		t.Errorf("notes: %s", zkNotesText(c))
	}
	// An even number: a majority of four is three.
	c = mustParseZK(t, "server.1=a:1:2\nserver.2=a:3:4\nserver.3=a:5:6\nserver.4=a:7:8\n")
	if c.Writes.HasQuorum(set.Of(0, 1)) || !c.Writes.HasQuorum(set.Of(0, 1, 3)) {
		t.Error("majority of 4")
	}
	if !strings.Contains(zkNotesText(c), "even number") {
		t.Errorf("notes: %s", zkNotesText(c))
	}
}

func zkNotesText(c *Config) string {
	var b strings.Builder
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "%d: %s\n", n.Line, n.Text)
	}
	return b.String()
}

// zkHand decides a hierarchical configuration independently: strict
// majorities written as 2·part > whole.
func zkHand(groups [][]int, weight []int64, live *set.Set) bool {
	nonzero, maj := 0, 0
	for _, g := range groups {
		var tot, up int64
		for _, v := range g {
			tot += weight[v]
			if live.Has(v) {
				up += weight[v]
			}
		}
		if tot > 0 {
			nonzero++
			if 2*up > tot {
				maj++
			}
		}
	}
	return 2*maj > nonzero
}

func TestZooKeeperWeightsAndZeroGroups(t *testing.T) {
	// Group 1: server 1 outweighs 2 and 3 together; group 3 weighs 0;
	// server 9 is an observer.
	c := mustParseZK(t, `server.1=h:1:2
server.2=h:3:4
server.3=h:5:6
server.4=h:7:8
server.5=h:9:10
server.6=h:11:12
server.7=h:13:14
server.9=h:15:16:observer
group.1=1:2:3
group.2=4:5:6
group.3=7
weight.1=3
weight.7=0
`)
	groups := [][]int{{0, 1, 2}, {3, 4, 5}, {6}}
	weight := []int64{3, 1, 1, 1, 1, 1, 0}
	zkEachSubset(7, func(live *set.Set, _ int) {
		if got, want := c.Writes.HasQuorum(live), zkHand(groups, weight, live); got != want {
			t.Errorf("%v: %v, want %v", live, got, want)
		}
	})
	// Both groups of non-zero weight must hold a majority: server 1 and
	// two of 4, 5, 6.
	if !c.Writes.HasQuorum(set.Of(0, 3, 4)) || c.Writes.HasQuorum(set.Of(1, 2, 3, 4, 5, 6)) {
		t.Error("weighted groups")
	}
	if !strings.HasPrefix(c.Notes[0].Text, "group.3 has weight 0") || c.Notes[0].Line != 11 {
		t.Errorf("first note %+v", c.Notes[0])
	}
}

// zkReported is the membership ZooKeeper 3.8.0 printed for the conf
// four-letter word (its QuorumHierarchical written out) in a run of the
// real-software suite: weights for the participants only, the observer in
// no group, the version in hexadecimal.
const zkReported = `server.1=127.0.0.1:41673:46801:participant;127.0.0.1:43139
server.2=127.0.0.1:32847:42423:participant;127.0.0.1:43319
server.3=127.0.0.1:38147:41977:participant;127.0.0.1:38065
server.4=127.0.0.1:42023:44769:participant;127.0.0.1:45039
server.5=127.0.0.1:35627:38069:participant;127.0.0.1:33573
server.6=127.0.0.1:37933:44245:participant;127.0.0.1:44407
server.7=127.0.0.1:33809:43999:participant;127.0.0.1:34861
server.8=127.0.0.1:45767:37425:observer;127.0.0.1:38961
group.1=1:2:3
group.2=4:5:6
group.3=7
weight.1=3
weight.2=1
weight.3=1
weight.4=1
weight.5=1
weight.6=1
weight.7=0
version=0`

func TestZooKeeperReportedMembership(t *testing.T) {
	c := mustParseZK(t, zkReported)
	if got := strings.Join(c.Labels, ","); got != "server.1,server.2,server.3,server.4,server.5,server.6,server.7" {
		t.Fatalf("labels %s", got)
	}
	groups := [][]int{{0, 1, 2}, {3, 4, 5}, {6}}
	weight := []int64{3, 1, 1, 1, 1, 1, 0}
	zkEachSubset(7, func(live *set.Set, _ int) {
		if got, want := c.Writes.HasQuorum(live), zkHand(groups, weight, live); got != want {
			t.Errorf("%v: %v, want %v", live, got, want)
		}
	})
}

// TestZooKeeperRandom checks the rule against zkHand on random
// hierarchical configurations, written out as files and read back.
func TestZooKeeperRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.IntN(9)
		ng := 1 + rng.IntN(n)
		perm := rng.Perm(n)
		groups := make([][]int, ng)
		for i, v := range perm {
			g := i % ng
			if i >= ng {
				g = rng.IntN(ng)
			}
			groups[g] = append(groups[g], v)
		}
		weight := make([]int64, n)
		for v := range weight {
			weight[v] = int64(rng.IntN(4))
		}
		var b strings.Builder
		for v := range n {
			fmt.Fprintf(&b, "server.%d=h:%d:%d\n", 10*(v+1), 2*v+1000, 2*v+1001)
		}
		for gi, g := range groups {
			ids := make([]string, len(g))
			for j, v := range g {
				ids[j] = fmt.Sprint(10 * (v + 1))
			}
			fmt.Fprintf(&b, "group.%d=%s\n", gi+5, strings.Join(ids, ":"))
		}
		nonzero := false
		for _, g := range groups {
			for _, v := range g {
				nonzero = nonzero || weight[v] > 0
			}
		}
		for v, w := range weight {
			fmt.Fprintf(&b, "weight.%d=%d\n", 10*(v+1), w)
		}
		c, err := zookeeperFormat.Parse("zoo.cfg", []byte(b.String()))
		if !nonzero {
			if err == nil {
				t.Fatalf("trial %d: every weight 0 read without error", trial)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, b.String())
		}
		zkEachSubset(n, func(live *set.Set, _ int) {
			if got, want := c.Writes.HasQuorum(live), zkHand(groups, weight, live); got != want {
				t.Fatalf("trial %d: %v: %v, want %v\n%s", trial, live, got, want, b.String())
			}
		})
	}
}

func TestZooKeeperErrors(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"unknown key", "server.1=a:1:2\ntickTim=2000\n", `zoo.cfg:2: unknown key "tickTim"`},
		{"misspelt group", "server.1=a:1:2\ngroups.1=1\n", `zoo.cfg:2: unknown key "groups.1"`},
		{"misspelt weight", "server.1=a:1:2\nweight1=1\n", `zoo.cfg:2: unknown key "weight1"`},
		{"duplicate server", "server.1=a:1:2\nserver.2=b:1:2\nserver.1=c:1:2\n", "zoo.cfg:3: server.1 is defined twice (first at line 1)"},
		{"duplicate group", "server.1=a:1:2\ngroup.1=1\ngroup.1=1\n", "zoo.cfg:3: group.1 is defined twice"},
		{"duplicate weight", "server.1=a:1:2\ngroup.1=1\nweight.1=1\nweight.1=2\n", "zoo.cfg:4: weight.1 is given twice"},
		{"weight in no group", "server.1=a:1:2\nserver.2=a:3:4\ngroup.1=1\nweight.2=3\n", "zoo.cfg:4: weight.2: server 2 is in no group"},
		{"weight of unknown server", "server.1=a:1:2\ngroup.1=1\nweight.5=3\n", "zoo.cfg:3: weight.5: no server line defines server 5"},
		{"group names unknown server", "server.1=a:1:2\n\ngroup.1=1:4\n", "zoo.cfg:3: group.1 names server 4, which no server line defines"},
		{"server in two groups", "server.1=a:1:2\nserver.2=a:3:4\ngroup.1=1:2\ngroup.2=2\n", "zoo.cfg:4: server 2 is in two groups: group.1 (line 3) and group.2"},
		{"participant in no group", "server.1=a:1:2\nserver.2=a:3:4\ngroup.1=1\n", "zoo.cfg:2: server.2 is a participant in no group"},
		{"observer in a group", "server.1=a:1:2\nserver.2=a:3:4:observer\ngroup.1=1:2\n", "zoo.cfg:3: group.1 names server 2, an observer"},
		{"bad role", "server.1=a:1:2:leader\n", "zoo.cfg:1: server.1: role \"leader\""},
		{"bad port", "server.1=a:x:2\n", `zoo.cfg:1: server.1: "a:x:2": "x" is not a port`},
		{"same ports", "server.1=a:2:2\n", "zoo.cfg:1: server.1: \"a:2:2\": the quorum and election ports must differ"},
		{"too few parts", "server.1=a:2\n", "zoo.cfg:1: server.1: \"a:2\": want host:port:port"},
		{"bad id", "server.x=a:1:2\n", `zoo.cfg:1: "server.x": "x" is not an id`},
		{"negative weight", "server.1=a:1:2\ngroup.1=1\nweight.1=-1\n", `zoo.cfg:3: weight.1: "-1" is not a weight`},
		{"bad group member", "server.1=a:1:2\ngroup.1=1,2\n", `zoo.cfg:2: group.1: "1,2" is not a server id`},
		{"all zero", "server.1=a:1:2\ngroup.1=1\nweight.1=0\n", "zoo.cfg:2: every group has weight 0"},
		{"only observers", "server.1=a:1:2:observer\n", "zoo.cfg:1: every server is an observer"},
		{"no servers", "tickTime=2000\n", "zoo.cfg: no server.N line"},
		{"dynamic file", "tickTime=2000\ndynamicConfigFile=/etc/zoo.cfg.dynamic\n", "zoo.cfg:2: the servers are in the dynamic configuration file /etc/zoo.cfg.dynamic"},
		{"continuation", "server.1=a:1:\\\n2\n", "zoo.cfg:1: a line continued"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := zookeeperFormat.Parse("zoo.cfg", []byte(tt.text))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %q\nwant prefix %q", err, tt.want)
			}
		})
	}
	// The dynamic file holds only the quorum's lines.
	_, err := zookeeperFormat.Parse("conf/zoo.cfg.dynamic.100000000", []byte("server.1=a:1:2\nversion=100000000\ntickTime=2000\n"))
	if want := `conf/zoo.cfg.dynamic.100000000:3: "tickTime" in a dynamic configuration file`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestZooKeeperSniff(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       bool
	}{
		{"conf/zoo.cfg", "", true},
		{"zoo.cfg.dynamic.100000000", "", true},
		{"ensemble.properties", "# servers\nserver.1=a:1:2\n", true},
		{"ensemble.properties", "tickTime=2000\nserver.1=a:1:2\n", true},
		{"q.txt", "1 2 3\n2 3 4\n", false},
		{"members.json", `{"members": []}`, false},
		{"x.cfg", "serverx=1\n", false},
	} {
		if got := zookeeperFormat.Sniff(tt.name, []byte(tt.data)); got != tt.want {
			t.Errorf("Sniff(%q, %q) = %v", tt.name, tt.data, got)
		}
	}
}

// zkRoundTrip writes f as a ZooKeeper configuration, reads it back and
// checks that the minimal quorums are f's.
func zkRoundTrip(t *testing.T, f *set.Family) string {
	t.Helper()
	ctx := context.Background()
	var b bytes.Buffer
	if err := WriteZooKeeper(ctx, &b, f); err != nil {
		t.Fatalf("write: %v", err)
	}
	c, err := zookeeperFormat.Parse("out.cfg", b.Bytes())
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, b.String())
	}
	got, err := c.Writes.Family(ctx, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	var want *set.Family
	if f.IsThreshold() {
		want, err = quorum.Minimal(ctx, f.N, func(s *set.Set) bool { return s.Len() >= f.Threshold }, 1<<16)
	} else {
		want, err = quorum.Minimal(ctx, f.N, quorum.Listed{F: f}.HasQuorum, 1<<16)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !zkSameQuorums(got, want) {
		t.Fatalf("round trip changed the quorums\n%s", b.String())
	}
	return b.String()
}

func TestZooKeeperRoundTrip(t *testing.T) {
	ctx := context.Background()
	// Files read and written back, with their params (the recorded
	// configuration) and, when every weight is 1, without (the hierarchy
	// inferred).
	for i, text := range []string{zk3x3,
		"server.1=a:1:2\nserver.2=a:1:2\nserver.3=a:1:2\nserver.5=a:1:2:observer\n",
		"server.1=h:1:2\nserver.2=h:3:4\nserver.3=h:5:6\nserver.4=h:7:8\nserver.5=h:9:10\nserver.6=h:11:12\nserver.7=h:13:14\ngroup.1=1:2:3\ngroup.2=4:5:6\ngroup.3=7\nweight.1=3\nweight.7=0\n",
		"server.1=h:1:2\nserver.2=h:3:4\nserver.3=h:5:6\nserver.4=h:7:8\nserver.5=h:9:10\ngroup.1=1:2\ngroup.2=3:4:5\nweight.3=2\n",
	} {
		c := mustParseZK(t, text)
		f, err := c.Writes.Family(ctx, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		out := zkRoundTrip(t, f)
		back := mustParseZK(t, out)
		if strings.Join(back.Labels, ",") != strings.Join(c.Labels, ",") {
			t.Errorf("labels %v, want %v", back.Labels, c.Labels)
		}
		if i < 2 {
			f.Kind, f.Params = "", nil
			zkRoundTrip(t, f)
		}
	}
	// Majorities and Kumar's two-level hierarchies.
	zkRoundTrip(t, &set.Family{N: 5, K: 1, Threshold: 3})
	for _, levels := range [][]int{{3}, {3, 3}, {5, 3}, {3, 4}, {3, 5}, {1, 3}} {
		f, err := construct.HQC(levels)
		if err != nil {
			t.Fatal(err)
		}
		out := zkRoundTrip(t, f)
		if len(levels) == 2 && levels[0] > 2 && levels[1] > 2 && !strings.Contains(out, "group.") {
			t.Errorf("HQC %v written without groups:\n%s", levels, out)
		}
	}
}

func TestZooKeeperRefuses(t *testing.T) {
	ctx := context.Background()
	fano, err := construct.ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	three, err := construct.HQC([]int{3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*set.Family{
		"fano":             fano,
		"4 of 5":           {N: 5, K: 1, Threshold: 4},
		"three levels":     three,
		"2-arbiter":        {N: 3, K: 2, Threshold: 3},
		"non-intersecting": {N: 4, K: 1, Quorums: []set.Set{*set.Of(0, 1), *set.Of(2, 3)}},
	} {
		err := WriteZooKeeper(ctx, &bytes.Buffer{}, f)
		if !errors.Is(err, ErrNotZooKeeper) {
			t.Errorf("%s: err = %v, want ErrNotZooKeeper", name, err)
		}
	}
}

func FuzzZooKeeper(f *testing.F) {
	f.Add([]byte(zk3x3))
	f.Add([]byte("server.1=a:1:2\nserver.2=b:1:2:observer;2181\n"))
	f.Add([]byte("server.1=[::1]:1:2|b:3:4\ngroup.1=1\nweight.1=2\n"))
	f.Add([]byte("server.1=h:1:2\nserver.2=h:3:4\nserver.3=h:5:6\ngroup.1=1:2\ngroup.2=3\nweight.3=0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := zookeeperFormat.Parse("fuzz.cfg", data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		n := c.N()
		if n > 10 {
			return
		}
		ctx := context.Background()
		fam, err := c.Writes.Family(ctx, 1<<12)
		if err != nil {
			t.Fatalf("family: %v", err)
		}
		var b bytes.Buffer
		if err := WriteZooKeeper(ctx, &b, fam); err != nil {
			t.Fatalf("a ZooKeeper configuration not written back: %v", err)
		}
		back, err := zookeeperFormat.Parse("back.cfg", b.Bytes())
		if err != nil {
			t.Fatalf("written file not read back: %v\n%s", err, b.String())
		}
		zkEachSubset(n, func(live *set.Set, _ int) {
			if c.Writes.HasQuorum(live) != back.Writes.HasQuorum(live) {
				t.Fatalf("%v: round trip changed the verdict\n%s", live, b.String())
			}
		})
	})
}
