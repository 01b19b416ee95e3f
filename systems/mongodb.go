package systems

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// A MongoDB configuration is a replica set's configuration as rs.conf()
// returns it, in JSON (mongosh --quiet --json=relaxed --eval 'rs.conf()';
// Extended JSON's number wrappers are read too), with optionally the write
// concern added at the top level:
//
//	{"_id": "rs0", "members": [{"_id": 0, "host": "a:27017"}, ...],
//	 "writeConcern": {"w": "majority"}}
//
// ("defaultWriteConcern", as getDefaultRWConcern prints it, is read as
// well, and so is settings.getLastErrorDefaults). Without one, the write
// concern is MongoDB 5.0's implicit default: w: 1 when the set has an
// arbiter and no more data-bearing members than a voting majority,
// w: "majority" otherwise.
//
// The nodes are the members, labelled by host, in the domain of their
// "dc" tag (and "dc/rack" with a "rack" tag) when every member has one.
// The two sides are MongoDB's two quorums, as Flexible Paxos's phases:
//
//   - reads are elections: a primary is elected by a majority of the
//     voting members (votes: 1, arbiters included), and one of the live
//     members must be electable (priority > 0);
//   - writes are the members whose acknowledgements satisfy the write
//     concern: w: "majority" needs the calculated majority — the smaller
//     of a voting majority and the number of data-bearing voting members —
//     of data-bearing voting members; w: N needs N data-bearing members,
//     voting or not, and the primary, an electable member, is one of
//     them. Arbiters never acknowledge. (A write also needs a primary to
//     have been elected: the reads side says when one can be.)
//
// Every election meeting every write is exactly what keeps an
// acknowledged write from being rolled back.
var mongodbFormat = Format{
	Name:  "mongodb",
	Sniff: sniffMongoDB,
	Parse: parseMongoDB,
}

func sniffMongoDB(_ string, data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' || len(t) > configSizeLimit {
		return false
	}
	if !bytes.Contains(t, []byte(`"members"`)) || !bytes.Contains(t, []byte(`"host"`)) {
		return false
	}
	root, err := parseJSONNodes("", t)
	if err != nil || root.kind != '{' {
		return false
	}
	m := root.get("members")
	if m == nil || m.kind != '[' || len(m.elem) == 0 {
		return false
	}
	first := m.elem[0]
	return first.kind == '{' && first.get("host") != nil && first.get("_id") != nil
}

// MongoDB's limits on a replica set (replica_set_config.cpp).
const (
	mongoMaxMembers = 50
	mongoMaxVoting  = 7
)

type mongoMember struct {
	id       int64
	host     string
	arbiter  bool
	hidden   bool
	votes    int64
	priority float64
	delay    float64
	tags     map[string]string
	line     int
}

func (m *mongoMember) voting() bool    { return m.votes > 0 }
func (m *mongoMember) data() bool      { return !m.arbiter }
func (m *mongoMember) electable() bool { return m.priority > 0 }

type mongodb struct {
	members []mongoMember
	w       string // "majority" or a number
	wn      int    // the number of w: N
	wLine   int    // 0: the implicit default
}

func parseMongoDB(name string, data []byte) (*Config, error) {
	if len(data) > configSizeLimit {
		return nil, syntaxErrorf(name, 0, "larger than %d bytes: not a configuration file", configSizeLimit)
	}
	root, err := parseJSONNodes(name, data)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, syntaxErrorf(name, root.line, "want rs.conf()'s object, not %s", jsonKindName(root.kind))
	}
	bad := func(v *jsonNode, format string, args ...any) error {
		return syntaxErrorf(name, v.line, format, args...)
	}
	m := &mongodb{}
	var wc *jsonNode
	for i, k := range root.keys {
		v := root.vals[i]
		switch k {
		case "_id", "version", "term", "protocolVersion", "writeConcernMajorityJournalDefault", "configsvr":
		case "members":
			if v.kind != '[' {
				return nil, bad(v, "members: want an array, not %s", jsonKindName(v.kind))
			}
			for _, e := range v.elem {
				mm, err := parseMongoMember(name, e)
				if err != nil {
					return nil, err
				}
				m.members = append(m.members, mm)
			}
		case "settings":
			if v.kind != '{' {
				return nil, bad(v, "settings: want an object, not %s", jsonKindName(v.kind))
			}
			for j, sk := range v.keys {
				switch sk {
				case "chainingAllowed", "heartbeatIntervalMillis", "heartbeatTimeoutSecs", "electionTimeoutMillis",
					"catchUpTimeoutMillis", "catchUpTakeoverDelayMillis", "getLastErrorModes", "replicaSetId":
				case "getLastErrorDefaults":
					if v.vals[j].kind == '{' && v.vals[j].get("w") != nil {
						if wc != nil {
							return nil, bad(v.vals[j], "a second write concern (the first at line %d)", wc.line)
						}
						wc = v.vals[j]
					}
				default:
					return nil, bad(v.vals[j], "unknown settings key %s", strconv.Quote(sk))
				}
			}
		case "writeConcern", "defaultWriteConcern":
			if wc != nil {
				return nil, bad(v, "a second write concern (the first at line %d)", wc.line)
			}
			wc = v
		default:
			return nil, bad(v, "unknown key %s (rs.conf() has _id, version, term, protocolVersion, members, settings, ...; the write concern is writeConcern)", strconv.Quote(k))
		}
	}
	if len(m.members) == 0 {
		return nil, syntaxErrorf(name, root.line, "no members")
	}
	if err := m.validate(name); err != nil {
		return nil, err
	}
	if wc != nil {
		if err := m.writeConcern(name, wc); err != nil {
			return nil, err
		}
	} else {
		m.w = "majority"
		if m.arbiters() > 0 && m.dataBearing() <= m.majority() {
			m.w, m.wn = "1", 1
		}
	}
	return m.config(), nil
}

func parseMongoMember(name string, v *jsonNode) (mongoMember, error) {
	mm := mongoMember{votes: 1, priority: 1, line: v.line}
	if v.kind != '{' {
		return mm, syntaxErrorf(name, v.line, "a member: want an object, not %s", jsonKindName(v.kind))
	}
	bad := func(v *jsonNode, format string, args ...any) error {
		return syntaxErrorf(name, v.line, format, args...)
	}
	var priority, arbiter *jsonNode
	noIndexes := false
	for i, k := range v.keys {
		f := v.vals[i]
		switch k {
		case "_id":
			n, err := f.asInt()
			if err != nil || n < 0 {
				return mm, bad(f, "member _id: want a whole number from 0")
			}
			mm.id = n
		case "host":
			if f.kind != 's' || strings.TrimSpace(f.str) == "" {
				return mm, bad(f, "member host: want a host name")
			}
			mm.host = f.str
		case "arbiterOnly", "hidden", "buildIndexes", "newlyAdded":
			if f.kind != 'b' {
				return mm, bad(f, "member %s: want true or false, not %s", k, jsonKindName(f.kind))
			}
			switch k {
			case "arbiterOnly":
				mm.arbiter, arbiter = f.b, f
			case "hidden":
				mm.hidden = f.b
			case "buildIndexes":
				noIndexes = !f.b
			}
		case "votes":
			n, err := f.asInt()
			if err != nil || (n != 0 && n != 1) {
				return mm, bad(f, "member votes: want 0 or 1")
			}
			mm.votes = n
		case "priority":
			p, err := f.asFloat()
			if err != nil || !(p >= 0 && p <= 1000) {
				return mm, bad(f, "member priority: want a number from 0 to 1000")
			}
			mm.priority, priority = p, f
		case "secondaryDelaySecs", "slaveDelay":
			d, err := f.asFloat()
			if err != nil || !(d >= 0) {
				return mm, bad(f, "member %s: want a number of seconds", k)
			}
			mm.delay = d
		case "tags":
			if f.kind != '{' {
				return mm, bad(f, "member tags: want an object, not %s", jsonKindName(f.kind))
			}
			mm.tags = map[string]string{}
			for j, tk := range f.keys {
				if f.vals[j].kind != 's' {
					return mm, bad(f.vals[j], "tag %s: want a string", strconv.Quote(tk))
				}
				mm.tags[tk] = f.vals[j].str
			}
		default:
			return mm, bad(f, "unknown member key %s (want _id, host, arbiterOnly, buildIndexes, hidden, priority, tags, secondaryDelaySecs, votes)", strconv.Quote(k))
		}
	}
	switch {
	case v.get("_id") == nil:
		return mm, bad(v, "a member without _id")
	case mm.host == "":
		return mm, bad(v, "a member without host")
	}
	if mm.arbiter {
		if priority != nil && mm.priority != 0 {
			return mm, bad(priority, "member %s: an arbiter's priority must be 0", mm.host)
		}
		if mm.votes == 0 {
			return mm, bad(arbiter, "member %s: an arbiter must vote", mm.host)
		}
		mm.priority = 0
	}
	if mm.priority > 0 {
		for _, c := range []struct {
			bad  bool
			what string
		}{{mm.votes == 0, "a non-voting member"}, {mm.hidden, "a hidden member"}, {mm.delay > 0, "a delayed member"}, {noIndexes, "a member without indexes"}} {
			if c.bad {
				at := priority
				if at == nil {
					at = v
				}
				return mm, bad(at, "member %s: %s must have priority 0", mm.host, c.what)
			}
		}
	}
	return mm, nil
}

// validate checks the set as MongoDB does: unique ids and hosts, at most
// 50 members and 7 voting ones, some member electable.
func (m *mongodb) validate(name string) error {
	if len(m.members) > mongoMaxMembers {
		return syntaxErrorf(name, m.members[mongoMaxMembers].line, "%d members: a replica set has at most %d", len(m.members), mongoMaxMembers)
	}
	ids, hosts := map[int64]int{}, map[string]int{}
	voting := 0
	for _, mm := range m.members {
		if first, ok := ids[mm.id]; ok {
			return syntaxErrorf(name, mm.line, "member _id %d given twice (first at line %d)", mm.id, first)
		}
		ids[mm.id] = mm.line
		if first, ok := hosts[mm.host]; ok {
			return syntaxErrorf(name, mm.line, "host %s given twice (first at line %d)", quoteName(mm.host), first)
		}
		hosts[mm.host] = mm.line
		if mm.voting() {
			if voting++; voting > mongoMaxVoting {
				return syntaxErrorf(name, mm.line, "more than %d voting members", mongoMaxVoting)
			}
		}
	}
	if voting == 0 {
		return syntaxErrorf(name, m.members[0].line, "no voting member")
	}
	for _, mm := range m.members {
		if mm.electable() {
			return nil
		}
	}
	return syntaxErrorf(name, m.members[0].line, "no member can become primary: every member has priority 0")
}

func (m *mongodb) writeConcern(name string, v *jsonNode) error {
	if v.kind != '{' {
		return syntaxErrorf(name, v.line, "write concern: want an object such as {\"w\": \"majority\"}, not %s", jsonKindName(v.kind))
	}
	m.wLine = v.line
	for i, k := range v.keys {
		f := v.vals[i]
		switch k {
		case "j", "wtimeout", "wtimeoutMS", "provenance":
		case "w":
			m.wLine = f.line
			if f.kind == 's' {
				if f.str != "majority" {
					return syntaxErrorf(name, f.line, "w: %s: tag-set write concerns are not read (want \"majority\" or a number)", strconv.Quote(f.str))
				}
				m.w = "majority"
				continue
			}
			n, err := f.asInt()
			if err != nil {
				return syntaxErrorf(name, f.line, "w: want \"majority\" or a number: %v", err)
			}
			if n <= 0 {
				return syntaxErrorf(name, f.line, "w: %d asks for no acknowledgement: no replica is sure to hold the write", n)
			}
			if d := m.dataBearing(); n > int64(d) {
				return syntaxErrorf(name, f.line, "w: %d, but only %d members hold data", n, d)
			}
			m.w, m.wn = strconv.FormatInt(n, 10), int(n)
		default:
			return syntaxErrorf(name, f.line, "unknown write concern key %s (want w, j, wtimeout)", strconv.Quote(k))
		}
	}
	if m.w == "" {
		return syntaxErrorf(name, v.line, "write concern without w")
	}
	return nil
}

func (m *mongodb) count(ok func(*mongoMember) bool) int {
	n := 0
	for i := range m.members {
		if ok(&m.members[i]) {
			n++
		}
	}
	return n
}

func (m *mongodb) voters() int      { return m.count((*mongoMember).voting) }
func (m *mongodb) majority() int    { return m.voters()/2 + 1 }
func (m *mongodb) arbiters() int    { return m.count(func(x *mongoMember) bool { return x.arbiter }) }
func (m *mongodb) dataBearing() int { return m.count((*mongoMember).data) }
func (m *mongodb) dataVoting() int {
	return m.count(func(x *mongoMember) bool { return x.data() && x.voting() })
}

// writeNeed returns how many members of which kind a write's
// acknowledgements need.
func (m *mongodb) writeNeed() (int, func(*mongoMember) bool) {
	if m.w == "majority" {
		return min(m.majority(), m.dataVoting()), func(x *mongoMember) bool { return x.data() && x.voting() }
	}
	return m.wn, (*mongoMember).data
}

func (m *mongodb) liveCount(live *set.Set, ok func(*mongoMember) bool) int {
	n := 0
	for v := range live.All() {
		if v < len(m.members) && ok(&m.members[v]) {
			n++
		}
	}
	return n
}

func (m *mongodb) config() *Config {
	n := len(m.members)
	c := &Config{System: "mongodb"}
	for _, mm := range m.members {
		c.Labels = append(c.Labels, mm.host)
	}
	c.Domains = make([]string, n)
	for i, mm := range m.members {
		dc, ok := mm.tags["dc"]
		if !ok || dc == "" {
			c.Domains = nil
			break
		}
		c.Domains[i] = dc
		if r := mm.tags["rack"]; r != "" {
			c.Domains[i] += "/" + r
		}
	}
	maj := m.majority()
	c.Reads = &quorum.Rule{Nodes: n, NodeNames: c.Labels, Kind: "mongodb", Params: set.Params{"quorum": "election"},
		Has: func(live *set.Set) bool {
			return m.liveCount(live, (*mongoMember).voting) >= maj && m.liveCount(live, (*mongoMember).electable) > 0
		}}
	leaf := nodeLeaves(c.Labels)
	c.ReadExpr = m.expr(leaf, maj, (*mongoMember).voting)
	need, who := m.writeNeed()
	if m.arbiters() == 0 && need == maj && m.count(who) == m.voters() {
		// Acknowledgements from a majority of the voting members, all of
		// them data-bearing, one of them the primary: an election's rule.
		c.Writes, c.WriteExpr = c.Reads, c.ReadExpr
	} else {
		c.WriteExpr = m.expr(leaf, need, who)
		// The primary, an electable member, acknowledges every write.
		c.Writes = &quorum.Rule{Nodes: n, NodeNames: c.Labels, Kind: "mongodb", Params: set.Params{"w": m.w},
			Has: func(live *set.Set) bool {
				return m.liveCount(live, who) >= need && m.liveCount(live, (*mongoMember).electable) > 0
			}}
	}
	c.Notes = m.notes(c)
	return c
}

// expr writes "need of the members who, one of the live members
// electable" as an expression; the electable members are among who.
func (m *mongodb) expr(leaf []*expr.Expr, need int, who func(*mongoMember) bool) *expr.Expr {
	var members, electable []*expr.Expr
	allElectable := true
	for v := range m.members {
		mm := &m.members[v]
		if who(mm) {
			members = append(members, leaf[v])
			allElectable = allElectable && mm.electable()
		}
		if mm.electable() {
			electable = append(electable, leaf[v])
		}
	}
	e := mustChoose(need, members)
	if allElectable {
		return e
	}
	return expr.NewAnd(e, expr.NewOr(electable...))
}

// hosts names members.
func (m *mongodb) hosts(s *set.Set) string {
	var out []string
	for v := range s.All() {
		out = append(out, m.members[v].host)
	}
	return strings.Join(out, ", ")
}

// notes are the set's warnings, the most useful first: writes that can be
// rolled back, majority writes that one member's loss stops, an even
// number of voters, more than one arbiter, the implicit write concern.
func (m *mongodb) notes(c *Config) []Note {
	var notes []Note
	add := func(line int, format string, args ...any) {
		notes = append(notes, Note{Line: line, Text: fmt.Sprintf(format, args...)})
	}
	wname := "w: " + m.w
	if m.w == "majority" {
		wname = `w: "majority"`
	}
	if e, w, ok := m.rollback(c); ok {
		add(m.wLine, "%s writes can be rolled back: an election by %s can miss a write acknowledged by %s", wname, m.hosts(e), m.hosts(w))
	}
	need, who := m.writeNeed()
	if have := m.count(who); need == have && have > 1 {
		why := ""
		if m.arbiters() > 0 && m.w == "majority" {
			why = " (an arbiter votes but cannot acknowledge)"
		}
		kind := "data-bearing members"
		if m.w == "majority" {
			kind = "data-bearing voting members"
		}
		add(m.wLine, "%s needs all %d %s: any one of them down stops these writes%s", wname, have, kind, why)
	}
	if v := m.voters(); v%2 == 0 {
		add(0, "%d voting members: an election needs %d, which survives %s, as %d voters do; an even number of voters buys no resilience over one fewer",
			v, v/2+1, countNoun(v/2-1, "failure"), v-1)
	}
	if a := m.arbiters(); a > 1 {
		add(0, "%d arbiters: MongoDB advises at most one", a)
	}
	if m.wLine == 0 {
		add(0, "no write concern given: MongoDB 5.0's implicit default for this set is %s", wname)
	}
	return notes
}

// rollback finds an election and a write's acknowledgements that share no
// member: it tries each minimal election against the members it leaves.
func (m *mongodb) rollback(c *Config) (election, write *set.Set, ok bool) {
	if c.IsCoterie() {
		return nil, nil, false // majorities of the same voters always meet
	}
	n := len(m.members)
	// Only voting and electable members matter to an election: at most 7.
	var voters []int
	for v := range m.members {
		if m.members[v].voting() {
			voters = append(voters, v)
		}
	}
	// From the largest mask down: the first members, the likelier
	// primaries, are left to the write.
	for mask := 1<<len(voters) - 1; mask > 0; mask-- {
		e := set.New(n)
		for i, v := range voters {
			if mask>>i&1 == 1 {
				e.Add(v)
			}
		}
		if !c.Reads.Has(e) {
			continue
		}
		rest := set.Full(n)
		rest.Difference(rest, e)
		if c.Writes.Has(rest) {
			return shrinkQuorum(e, c.Reads.Has), shrinkQuorum(rest, c.Writes.Has), true
		}
	}
	return nil, nil, false
}

// shrinkQuorum drops members of s, in order, while has still holds.
func shrinkQuorum(s *set.Set, has func(*set.Set) bool) *set.Set {
	q := s.Clone()
	for _, v := range s.Elements() {
		q.Remove(v)
		if !has(q) {
			q.Add(v)
		}
	}
	return q
}
