package systems

import (
	"slices"
	"testing"
)

const nts33 = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};\n"

// The predicates below count replicas by label, independently of the
// reader's per-datacentre arithmetic; the sizes are Cassandra's blockFor
// (QUORUM = ΣRF/2 + 1, a local quorum RF_dc/2 + 1).
func TestCassandraLevels(t *testing.T) {
	dc1 := func(l map[string]bool) int { return countLabelPrefix(l, "dc1-") }
	dc2 := func(l map[string]bool) int { return countLabelPrefix(l, "dc2-") }
	for _, tt := range []struct {
		name, text    string
		reads, writes func(map[string]bool) bool
		safe          bool
	}{
		{"quorum both, 3+3", nts33 + "consistency: QUORUM\n",
			func(l map[string]bool) bool { return len(l) >= 4 }, nil, true},
		{"local quorum reads in dc2, quorum writes", nts33 + "read: LOCAL_QUORUM\nwrite: QUORUM\nread_dc: dc2\n",
			func(l map[string]bool) bool { return dc2(l) >= 2 },
			func(l map[string]bool) bool { return len(l) >= 4 }, false},
		{"local quorum in any dc", nts33 + "consistency: LOCAL_QUORUM\n",
			func(l map[string]bool) bool { return dc1(l) >= 2 || dc2(l) >= 2 }, nil, false},
		{"each quorum writes, local quorum reads", nts33 + "read: LOCAL_QUORUM\nwrite: EACH_QUORUM\ndc: dc1\n",
			func(l map[string]bool) bool { return dc1(l) >= 2 },
			func(l map[string]bool) bool { return dc1(l) >= 2 && dc2(l) >= 2 }, true},
		{"one and all", nts33 + "read: ONE\nwrite: ALL\n",
			func(l map[string]bool) bool { return len(l) >= 1 },
			func(l map[string]bool) bool { return len(l) == 6 }, true},
		{"two and three over 5", "replication: {'class': 'SimpleStrategy', 'replication_factor': 5}\nread: TWO\nwrite: THREE\n",
			func(l map[string]bool) bool { return len(l) >= 2 },
			func(l map[string]bool) bool { return len(l) >= 3 }, false},
		{"three and three over 5", "replication: {'class': 'SimpleStrategy', 'replication_factor': '5'}\nread: THREE\nwrite: THREE\n",
			func(l map[string]bool) bool { return len(l) >= 3 }, nil, true},
		{"unequal dcs, quorum 4 of 6 with 4+2", "replication: {'class': 'NetworkTopologyStrategy', 'dc1': 4, 'dc2': 2}\nread: LOCAL_ONE\nwrite: QUORUM\nread_dc: dc2\n",
			func(l map[string]bool) bool { return dc2(l) >= 1 },
			func(l map[string]bool) bool { return len(l) >= 4 }, false},
		{"each quorum over 3+0+2", "replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc3': 0, 'dc2': 2}\nconsistency: EACH_QUORUM\n",
			func(l map[string]bool) bool { return dc1(l) >= 2 && dc2(l) >= 2 }, nil, true},
		{"serial is quorum", nts33 + "read: SERIAL\nwrite: LOCAL_SERIAL\nwrite_dc: dc1\n",
			func(l map[string]bool) bool { return len(l) >= 4 },
			func(l map[string]bool) bool { return dc1(l) >= 2 }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := parseOK(t, cassandraFormat, tt.text)
			checkConfigShape(t, c)
			agreeOnAll(t, "reads", c.Reads, tt.reads)
			writes := tt.writes
			if writes == nil {
				writes = tt.reads
				if !c.IsCoterie() {
					t.Errorf("same level on both sides, but two rules")
				}
			}
			agreeOnAll(t, "writes", c.Writes, writes)
			// Safe iff no read quorum misses a write quorum, by brute
			// force over the minimal quorums.
			safe := safeByBruteForce(t, c)
			if safe != tt.safe {
				t.Errorf("brute force: safe = %v, want %v", safe, tt.safe)
			}
			if warned := hasNote(c, "can miss a write"); warned == safe {
				t.Errorf("safe = %v but the notes say %q", safe, c.Notes)
			}
		})
	}
}

func TestCassandraFamilies(t *testing.T) {
	// EACH_QUORUM over dc1: 3, dc2: 2: two of dc1's three and both of
	// dc2's, 3 quorums.
	c := parseOK(t, cassandraFormat, "replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2}\nconsistency: EACH_QUORUM\n")
	want := []string{
		"dc1-r1 dc1-r2 dc2-r1 dc2-r2",
		"dc1-r1 dc1-r3 dc2-r1 dc2-r2",
		"dc1-r2 dc1-r3 dc2-r1 dc2-r2",
	}
	if got := minimalByLabel(t, c.Reads); !slices.Equal(got, want) {
		t.Errorf("EACH_QUORUM quorums = %q, want %q", got, want)
	}
	if want := []string{"dc1", "dc1", "dc1", "dc2", "dc2"}; !slices.Equal(c.Domains, want) {
		t.Errorf("domains %q, want %q", c.Domains, want)
	}
	s := parseOK(t, cassandraFormat, "replication: {'class': 'SimpleStrategy', 'replication_factor': 3}\nconsistency: QUORUM\n")
	if want := []string{"r1 r2", "r1 r3", "r2 r3"}; !slices.Equal(minimalByLabel(t, s.Reads), want) {
		t.Errorf("SimpleStrategy RF 3 QUORUM = %q, want %q", minimalByLabel(t, s.Reads), want)
	}
	if s.Domains != nil {
		t.Errorf("SimpleStrategy domains %q, want none", s.Domains)
	}
}

func TestCassandraStatement(t *testing.T) {
	// As cqlsh's DESCRIBE KEYSPACE prints it: the class in full, the
	// factors quoted, durable_writes after AND; here over two lines.
	text := `-- DESCRIBE KEYSPACE shop
CREATE KEYSPACE shop WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy',
    'eu': '3', 'us': '2'}  AND durable_writes = true;
read: local_quorum
write: each_quorum
dc: eu
`
	c := parseOK(t, cassandraFormat, text)
	if want := []string{"eu-r1", "eu-r2", "eu-r3", "us-r1", "us-r2"}; !slices.Equal(c.Labels, want) {
		t.Fatalf("labels %q, want %q", c.Labels, want)
	}
	agreeOnAll(t, "writes", c.Writes, func(l map[string]bool) bool {
		return countLabelPrefix(l, "eu-") >= 2 && countLabelPrefix(l, "us-") >= 2
	})
	if !sniffCassandra("x", []byte(text)) {
		t.Error("not recognised")
	}
}

func TestCassandraNotes(t *testing.T) {
	for _, tt := range []struct {
		text, first string
	}{
		{nts33 + "read: LOCAL_QUORUM\nwrite: QUORUM\nread_dc: dc2\n",
			"LOCAL_QUORUM reads with QUORUM writes: a read in dc2 can miss a write (a read from 2 replicas in dc2, a write acknowledged by 3 replicas in dc1 and 1 in dc2)"},
		{nts33 + "consistency: QUORUM\n", "QUORUM reads and writes need 4 of the 6 replicas: losing dc1 stops them"},
		{nts33 + "read: ONE\nwrite: ALL\n", "ALL writes stop when any one replica is down"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 4}\nconsistency: LOCAL_QUORUM\ndc: dc1\n",
			"RF 4 in dc1: a local quorum is 3, which survives 1 replica down, no more than RF 3"},
	} {
		c := parseOK(t, cassandraFormat, tt.text)
		if len(c.Notes) == 0 || c.Notes[0].Text != tt.first {
			t.Errorf("%q: notes %q, want first %q", tt.text, c.Notes, tt.first)
		}
	}
	one := parseOK(t, cassandraFormat, "replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 0}\nconsistency: EACH_QUORUM\n")
	if len(one.Notes) != 0 {
		t.Errorf("one datacentre with replicas: notes %q, want none", one.Notes)
	}
	c := parseOK(t, cassandraFormat, nts33+"read: LOCAL_QUORUM\nwrite: EACH_QUORUM\ndc: dc1\n")
	if hasNote(c, "miss") {
		t.Errorf("safe configuration warned: %q", c.Notes)
	}
}

func TestCassandraErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "test.conf: no replication"},
		{nts33, "no read consistency level"},
		{nts33 + "read: QUORUM\n", "no write consistency level"},
		{nts33 + "read: QUORUM\nwrite: ANY\n", "test.conf:3: ANY is not read"},
		{nts33 + "read: QUORUM\nwrite: MOST\n", `test.conf:3: unknown consistency level "MOST"`},
		{nts33 + "consistency: QUORUM\nread: ONE\n", "test.conf:3: read given twice (first at line 2)"},
		{nts33 + nts33 + "consistency: ONE\n", "test.conf:2: replication given twice (first at line 1)"},
		{nts33 + "consistency: ONE\nflavour: mint\n", `test.conf:3: unknown key "flavour"`},
		{nts33 + "consistency: LOCAL_ONE\ndc: dc9\n", "test.conf:3: datacentre dc9 is not in the replication (dc1, dc2)"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc1': 2}\nconsistency: ONE\n", "test.conf:1: replication: dc1 given twice"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': '3/1'}\nconsistency: ONE\n", "transient replication is not read"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 'x'}\nconsistency: ONE\n", "is not a replication factor"},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 2, 'dc1': 3}\nconsistency: ONE\n", `unknown SimpleStrategy option "dc1"`},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 2}\nconsistency: THREE\n", "test.conf:2: THREE reads need 3 replicas, but there are 2"},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 2}\nconsistency: ONE\ndc: dc1\n", "SimpleStrategy places replicas without datacentres"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 0}\nconsistency: LOCAL_ONE\ndc: dc2\n", "dc2 holds no replica"},
		{"replication: {'class': 'LocalStrategy'}\nconsistency: ONE\n", "replication class \"LocalStrategy\" is not read"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 0}\nconsistency: ONE\n", "no replicas"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 65}\nconsistency: ONE\n", "at most 64"},
		{"replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3\nconsistency: ONE\n", "replication:"},
		{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} AND speed = 9;\nconsistency: ONE\n", `unknown keyspace option "speed = 9"`},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 1}\nconsistency ONE\n", "test.conf:2: want key: value"},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 1}\nconsistency: ONE\x00\n", "test.conf:2: control character"},
	} {
		wantSyntaxError(t, cassandraFormat, tt.text, tt.want)
	}
}

func TestCassandraSniff(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{nts33, true},
		{"replication: {'class': 'SimpleStrategy', 'replication_factor': 1}", true},
		{"# replication = {not here}\n1 2\n2 3\n", false},
		{`{"format": "coterie/1", "n": 3, "quorums": [[1, 2]]}`, false},
		{"1 2 3\n", false},
		// The word is found in either case before any line is matched.
		{"CREATE KEYSPACE k WITH REPLICATION = {'class': 'SimpleStrategy', 'replication_factor': 3};", true},
		{"create keyspace k with RePlIcAtIoN={'class': 'SimpleStrategy', 'replication_factor': 3};", true},
		{`{"format": "coterie/1", "n": 3, "labels": ["replication", "b", "c"], "quorums": [[1, 2]]}`, false},
	} {
		if got := sniffCassandra("f", []byte(tt.text)); got != tt.want {
			t.Errorf("sniff(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func FuzzCassandra(f *testing.F) {
	f.Add(nts33 + "read: LOCAL_QUORUM\nwrite: QUORUM\nread_dc: dc2\n")
	f.Add("replication: {'class': 'SimpleStrategy', 'replication_factor': 5}\nread: TWO\nwrite: THREE\n")
	f.Add("CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy',\n 'a': '2', 'b': 1}\nAND durable_writes = false;\nconsistency: EACH_QUORUM\n")
	f.Fuzz(func(t *testing.T, text string) {
		sniffCassandra("f", []byte(text))
		c, err := parseCassandra("f", []byte(text))
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		checkConfigShape(t, c)
		if c.N() <= 12 {
			// The notes' verdict agrees with brute force.
			safe := safeByBruteForce(t, c)
			if hasNote(c, "can miss a write") == safe {
				t.Fatalf("safe = %v, notes %q", safe, c.Notes)
			}
		}
	})
}

// Losing a datacentre of a 3+3 keyspace: QUORUM (4 of 6) stops whichever
// is lost; LOCAL_QUORUM served anywhere goes on until both are lost;
// EACH_QUORUM stops with either.
func TestCassandraDomainFailures(t *testing.T) {
	for _, tt := range []struct {
		level   string
		survive []bool
		res     int
		kill    []string
	}{
		{"QUORUM", []bool{false, false}, 0, []string{"dc1"}},
		{"LOCAL_QUORUM", []bool{true, true}, 1, []string{"dc1", "dc2"}},
		{"EACH_QUORUM", []bool{false, false}, 0, []string{"dc1"}},
		{"ONE", []bool{true, true}, 1, []string{"dc1", "dc2"}},
	} {
		c := parseOK(t, cassandraFormat, nts33+"consistency: "+tt.level+"\n")
		d, err := c.DomainFailures(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.Domains, []string{"dc1", "dc2"}) || !slices.Equal(d.Reads, tt.survive) || !slices.Equal(d.Writes, tt.survive) ||
			d.ReadResilience != tt.res || !slices.Equal(d.ReadKill, tt.kill) {
			t.Errorf("%s: %+v, want survive %v, resilience %d, kill %v", tt.level, d, tt.survive, tt.res, tt.kill)
		}
	}
	s := parseOK(t, cassandraFormat, "replication: {'class': 'SimpleStrategy', 'replication_factor': 3}\nconsistency: ONE\n")
	if d, err := s.DomainFailures(t.Context()); d != nil || err != nil {
		t.Errorf("SimpleStrategy: %+v, %v; want no domains", d, err)
	}
}

func TestCassandraExpressions(t *testing.T) {
	c := parseOK(t, cassandraFormat, nts33+"read: LOCAL_QUORUM\nwrite: QUORUM\nread_dc: dc2\n")
	if got, want := c.ReadExpr.String(), "choose(2, dc2-r1, dc2-r2, dc2-r3)"; got != want {
		t.Errorf("reads %s, want %s", got, want)
	}
	if got, want := c.WriteExpr.String(), "choose(4, dc1-r1, dc1-r2, dc1-r3, dc2-r1, dc2-r2, dc2-r3)"; got != want {
		t.Errorf("writes %s, want %s", got, want)
	}
	e := parseOK(t, cassandraFormat, nts33+"consistency: EACH_QUORUM\n")
	if got, want := e.ReadExpr.String(), "choose(2, dc1-r1, dc1-r2, dc1-r3)*choose(2, dc2-r1, dc2-r2, dc2-r3)"; got != want {
		t.Errorf("EACH_QUORUM %s, want %s", got, want)
	}
	if !e.ReadExpr.ReadOnce() {
		t.Error("EACH_QUORUM is not read once")
	}
	if k, ok := parseOK(t, cassandraFormat, "replication: {'class': 'SimpleStrategy', 'replication_factor': 5}\nconsistency: QUORUM\n").Threshold(); k != 3 || !ok {
		t.Errorf("QUORUM of 5: threshold %d, %v; want 3", k, ok)
	}
	if _, ok := e.Threshold(); ok {
		t.Error("EACH_QUORUM taken for a threshold")
	}
}
