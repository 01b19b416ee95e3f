package systems

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// A Cassandra-style configuration is a keyspace's replication and the
// consistency levels of its reads and writes, one per line:
//
//	CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};
//	read: LOCAL_QUORUM
//	write: QUORUM
//	read_dc: dc2
//
// The replication is a CREATE or ALTER KEYSPACE statement as cqlsh's
// DESCRIBE KEYSPACE prints it (it may span lines up to its ';'), or a line
// "replication: {...}" holding the map alone. The other keys are read and
// write (the consistency levels), consistency (both at once), and read_dc,
// write_dc or dc: the datacentre whose coordinators serve the LOCAL_*
// levels. Without one, a LOCAL_* level is served in any datacentre (a
// client in each): a read holds when some datacentre holds a local quorum.
// Comments start with #, -- or //.
//
// The system is the replicas of one token range: RF replicas in each
// datacentre, labelled dc1-r1, dc1-r2, ... (r1, r2, ... under
// SimpleStrategy, whose replicas are one datacentre), each in the domain of
// its datacentre. A level holds as Cassandra's ConsistencyLevel.blockFor
// counts it: ONE, TWO, THREE any 1, 2, 3 replicas; QUORUM (and SERIAL)
// ⌊ΣRF/2⌋+1 of all replicas; ALL every replica; LOCAL_ONE one replica and
// LOCAL_QUORUM (and LOCAL_SERIAL) ⌊RF_dc/2⌋+1 replicas of the
// coordinator's datacentre; EACH_QUORUM ⌊RF_dc/2⌋+1 replicas in every
// datacentre with replicas. ANY is refused: a write acknowledged by a hint
// is held by no replica, so no read is sure to see it.
var cassandraFormat = Format{
	Name:  "cassandra",
	Sniff: sniffCassandra,
	Parse: parseCassandra,
}

// maxReplicas bounds the replicas of one token range.
const maxReplicas = 64

var (
	cassReplicationRE = regexp.MustCompile(`(?i)\breplication\s*[=:]\s*\{`)
	cassStatementRE   = regexp.MustCompile(`(?i)^(create|alter)\s+keyspace\b`)
)

func sniffCassandra(_ string, data []byte) bool {
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	if bytes.IndexByte(data, '{') < 0 || !containsFoldASCII(data, "replication") {
		return false // no line can match cassReplicationRE: no need to split
	}
	lines, err := splitConfLines("", data)
	if err != nil {
		return false
	}
	for _, l := range lines {
		if cassReplicationRE.MatchString(l.text) {
			return true
		}
	}
	return false
}

// cassLevels are the consistency levels read, by name.
var cassLevels = map[string]bool{
	"ONE": true, "TWO": true, "THREE": true, "QUORUM": true, "ALL": true,
	"LOCAL_ONE": true, "LOCAL_QUORUM": true, "EACH_QUORUM": true,
	"SERIAL": true, "LOCAL_SERIAL": true,
}

// cassandra is a parsed configuration.
type cassandra struct {
	simple          bool
	dcs             []string // "" under SimpleStrategy
	rf              []int
	first           []int // first node of each datacentre
	read, write     string
	readDC, writeDC int // -1: any datacentre
}

func parseCassandra(name string, data []byte) (*Config, error) {
	lines, err := splitConfLines(name, data)
	if err != nil {
		return nil, err
	}
	c := &cassandra{readDC: -1, writeDC: -1}
	seen := map[string]int{}
	var readDC, writeDC string
	var readDCLine, writeDCLine, readLine, writeLine int
	replLine := 0
	setOnce := func(key string, no int) error {
		if first, ok := seen[key]; ok {
			return syntaxErrorf(name, no, "%s given twice (first at line %d)", key, first)
		}
		seen[key] = no
		return nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if cassStatementRE.MatchString(l.text) {
			stmt := l.text
			for !cassStatementDone(stmt) && i+1 < len(lines) {
				i++
				stmt += " " + lines[i].text
			}
			for i+1 < len(lines) && !strings.Contains(stmt, ";") && strings.HasPrefix(strings.ToUpper(lines[i+1].text), "AND ") {
				i++
				stmt += " " + lines[i].text
			}
			if err := setOnce("replication", l.no); err != nil {
				return nil, err
			}
			loc := cassReplicationRE.FindStringIndex(stmt)
			if loc == nil {
				return nil, syntaxErrorf(name, l.no, "the keyspace statement has no replication = {...}")
			}
			rest, err := c.replication(name, l.no, stmt[loc[1]-1:])
			if err != nil {
				return nil, err
			}
			if err := cassStatementTail(name, l.no, rest); err != nil {
				return nil, err
			}
			replLine = l.no
			continue
		}
		key, value, ok := cutKeyValue(l.text)
		if !ok {
			return nil, syntaxErrorf(name, l.no, "want key: value or a CREATE KEYSPACE statement, not %q", l.text)
		}
		switch key {
		case "replication":
			if err := setOnce(key, l.no); err != nil {
				return nil, err
			}
			for !cassStatementDone("x "+value) && i+1 < len(lines) {
				i++
				value += " " + lines[i].text
			}
			rest, err := c.replication(name, l.no, value)
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";")) != "" {
				return nil, syntaxErrorf(name, l.no, "unexpected %q after the replication map", strings.TrimSpace(rest))
			}
			replLine = l.no
		case "read", "write", "consistency":
			lv := strings.ToUpper(value)
			if lv == "ANY" {
				return nil, syntaxErrorf(name, l.no, "ANY is not read: a write acknowledged only by a hint is held by no replica, so no read is sure to see it")
			}
			if !cassLevels[lv] {
				return nil, syntaxErrorf(name, l.no, "unknown consistency level %q (want ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, SERIAL or LOCAL_SERIAL)", value)
			}
			keys := []string{key}
			if key == "consistency" {
				keys = []string{"read", "write"}
			}
			for _, k := range keys {
				if err := setOnce(k, l.no); err != nil {
					return nil, err
				}
				if k == "read" {
					c.read, readLine = lv, l.no
				} else {
					c.write, writeLine = lv, l.no
				}
			}
		case "read_dc", "write_dc", "dc":
			if value == "" {
				return nil, syntaxErrorf(name, l.no, "%s: no datacentre named", key)
			}
			keys := []string{key}
			if key == "dc" {
				keys = []string{"read_dc", "write_dc"}
			}
			for _, k := range keys {
				if err := setOnce(k, l.no); err != nil {
					return nil, err
				}
				if k == "read_dc" {
					readDC, readDCLine = trimQuotes(value), l.no
				} else {
					writeDC, writeDCLine = trimQuotes(value), l.no
				}
			}
		default:
			return nil, syntaxErrorf(name, l.no, "unknown key %q (want replication, read, write, consistency, read_dc, write_dc or dc)", key)
		}
	}
	switch {
	case replLine == 0:
		return nil, syntaxErrorf(name, 0, "no replication: add a CREATE KEYSPACE statement or a line replication: {'class': 'NetworkTopologyStrategy', 'dc1': 3}")
	case c.read == "":
		return nil, syntaxErrorf(name, 0, "no read consistency level: add a line read: LEVEL (such as read: QUORUM)")
	case c.write == "":
		return nil, syntaxErrorf(name, 0, "no write consistency level: add a line write: LEVEL (such as write: QUORUM)")
	}
	for _, d := range []struct {
		name  string
		line  int
		dst   *int
		level string
	}{{readDC, readDCLine, &c.readDC, c.read}, {writeDC, writeDCLine, &c.writeDC, c.write}} {
		if d.name == "" {
			continue
		}
		if c.simple {
			return nil, syntaxErrorf(name, d.line, "datacentre %s named, but SimpleStrategy places replicas without datacentres", quoteName(d.name))
		}
		*d.dst = -1
		for i, dc := range c.dcs {
			if dc == d.name {
				*d.dst = i
			}
		}
		if *d.dst < 0 {
			return nil, syntaxErrorf(name, d.line, "datacentre %s is not in the replication (%s)", quoteName(d.name), strings.Join(c.dcs, ", "))
		}
	}
	total := c.total()
	for _, s := range []struct {
		what, level string
		line, dc    int
	}{{"read", c.read, readLine, c.readDC}, {"write", c.write, writeLine, c.writeDC}} {
		if need := map[string]int{"ONE": 1, "TWO": 2, "THREE": 3}[s.level]; need > total {
			return nil, syntaxErrorf(name, s.line, "%s %ss need %d replicas, but there are %d", s.level, s.what, need, total)
		}
		if s.dc >= 0 && strings.HasPrefix(s.level, "LOCAL_") && c.rf[s.dc] == 0 {
			return nil, syntaxErrorf(name, s.line, "%s %ss in %s: %s holds no replica", s.level, s.what, c.dcs[s.dc], c.dcs[s.dc])
		}
	}
	return c.config(), nil
}

// cassStatementDone reports whether a keyspace statement is complete: a
// ';' outside quotes, or the replication map's braces closed.
func cassStatementDone(s string) bool {
	if unquotedIndex(s, ";") >= 0 {
		return true
	}
	depth, opened := 0, false
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '{':
			depth++
			opened = true
		case c == '}':
			depth--
		}
	}
	return opened && depth <= 0
}

// cassStatementTail checks what follows the replication map in a keyspace
// statement: nothing, or AND options Cassandra has (durable_writes,
// graph_engine), then an optional ';'.
func cassStatementTail(name string, line int, rest string) error {
	rest = strings.TrimSpace(rest)
	if i := unquotedIndex(rest, ";"); i >= 0 {
		if strings.TrimSpace(rest[i+1:]) != "" {
			return syntaxErrorf(name, line, "unexpected %q after the statement's ';'", strings.TrimSpace(rest[i+1:]))
		}
		rest = rest[:i]
	}
	for _, part := range regexp.MustCompile(`(?i)\s*\bAND\s+`).Split(rest, -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, _, ok := cutKeyValue(part)
		if !ok || (key != "durable_writes" && key != "graph_engine") {
			return syntaxErrorf(name, line, "unknown keyspace option %q (want durable_writes or graph_engine after AND)", part)
		}
	}
	return nil
}

// replication reads the map at the start of s ("{'class': ..., ...}")
// into c and returns what follows it.
func (c *cassandra) replication(name string, line int, s string) (string, error) {
	m, rest, err := parseCQLMap(s)
	if err != nil {
		return "", syntaxErrorf(name, line, "replication: %v", err)
	}
	class := ""
	for _, kv := range m {
		if kv.key == "class" {
			class = kv.value
		}
	}
	switch strings.TrimPrefix(class, "org.apache.cassandra.locator.") {
	case "SimpleStrategy":
		c.simple = true
		rf := -1
		for _, kv := range m {
			switch kv.key {
			case "class":
			case "replication_factor":
				n, err := cassRF(kv.value)
				if err != nil {
					return "", syntaxErrorf(name, line, "replication_factor: %v", err)
				}
				rf = n
			default:
				return "", syntaxErrorf(name, line, "unknown SimpleStrategy option %q (want replication_factor)", kv.key)
			}
		}
		if rf < 0 {
			return "", syntaxErrorf(name, line, "SimpleStrategy without replication_factor")
		}
		c.dcs, c.rf = []string{""}, []int{rf}
	case "NetworkTopologyStrategy":
		for _, kv := range m {
			switch kv.key {
			case "class":
				continue
			case "replication_factor":
				return "", syntaxErrorf(name, line, "replication_factor under NetworkTopologyStrategy sets every datacentre's RF, and the file does not list the datacentres: name each one ('dc1': 3)")
			case "":
				return "", syntaxErrorf(name, line, "a datacentre with an empty name")
			}
			n, err := cassRF(kv.value)
			if err != nil {
				return "", syntaxErrorf(name, line, "datacentre %s: %v", quoteName(kv.key), err)
			}
			c.dcs = append(c.dcs, kv.key)
			c.rf = append(c.rf, n)
		}
		if len(c.dcs) == 0 {
			return "", syntaxErrorf(name, line, "NetworkTopologyStrategy with no datacentre")
		}
	case "":
		return "", syntaxErrorf(name, line, "replication without a 'class'")
	default:
		return "", syntaxErrorf(name, line, "replication class %q is not read (want SimpleStrategy or NetworkTopologyStrategy)", class)
	}
	total := c.total()
	switch {
	case total == 0:
		return "", syntaxErrorf(name, line, "no replicas: every replication factor is 0")
	case total > maxReplicas:
		return "", syntaxErrorf(name, line, "%d replicas: at most %d are read", total, maxReplicas)
	}
	c.first = make([]int, len(c.rf))
	for i := 1; i < len(c.rf); i++ {
		c.first[i] = c.first[i-1] + c.rf[i-1]
	}
	return rest, nil
}

// cassRF reads a replication factor: a number, or one quoted.
func cassRF(v string) (int, error) {
	if strings.Contains(v, "/") {
		return 0, fmt.Errorf("%q: transient replication is not read", v)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a replication factor", v)
	}
	if n > maxReplicas {
		return 0, fmt.Errorf("%d replicas: at most %d are read", n, maxReplicas)
	}
	return n, nil
}

type cqlPair struct{ key, value string }

// parseCQLMap reads a CQL map literal of strings and numbers at the start
// of s, refusing a key given twice, and returns what follows it.
func parseCQLMap(s string) ([]cqlPair, string, error) {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
	}
	word := func() (string, error) {
		skip()
		if i >= len(s) {
			return "", fmt.Errorf("the map is not closed")
		}
		if q := s[i]; q == '\'' || q == '"' {
			var b strings.Builder
			for i++; ; i++ {
				if i >= len(s) {
					return "", fmt.Errorf("a quoted string is not closed")
				}
				if s[i] == q {
					if i+1 < len(s) && s[i+1] == q { // '' inside '...'
						b.WriteByte(q)
						i++
						continue
					}
					i++
					return b.String(), nil
				}
				b.WriteByte(s[i])
			}
		}
		j := i
		for i < len(s) && (s[i] == '_' || s[i] == '.' || s[i] == '-' || s[i] == '/' ||
			'0' <= s[i] && s[i] <= '9' || 'a' <= s[i]|0x20 && s[i]|0x20 <= 'z') {
			i++
		}
		if i == j {
			return "", fmt.Errorf("unexpected %q", s[i:i+1])
		}
		return s[j:i], nil
	}
	expect := func(c byte) error {
		skip()
		if i >= len(s) {
			return fmt.Errorf("the map is not closed")
		}
		if s[i] != c {
			return fmt.Errorf("want %q, not %q", c, s[i:i+1])
		}
		i++
		return nil
	}
	if err := expect('{'); err != nil {
		return nil, "", err
	}
	var out []cqlPair
	seen := map[string]bool{}
	skip()
	if i < len(s) && s[i] == '}' {
		return nil, s[i+1:], nil
	}
	for {
		k, err := word()
		if err != nil {
			return nil, "", err
		}
		if seen[k] {
			return nil, "", fmt.Errorf("%s given twice", quoteName(k))
		}
		seen[k] = true
		if err := expect(':'); err != nil {
			return nil, "", err
		}
		v, err := word()
		if err != nil {
			return nil, "", err
		}
		out = append(out, cqlPair{k, v})
		skip()
		if i < len(s) && s[i] == '}' {
			return out, s[i+1:], nil
		}
		if err := expect(','); err != nil {
			return nil, "", err
		}
	}
}

// trimQuotes drops one pair of surrounding quotes.
func trimQuotes(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func (c *cassandra) total() int {
	t := 0
	for _, r := range c.rf {
		t += r
	}
	return t
}

// counts returns the live replicas of each datacentre.
func (c *cassandra) counts(live *set.Set) []int {
	out := make([]int, len(c.rf))
	for d := range c.rf {
		for v := c.first[d]; v < c.first[d]+c.rf[d]; v++ {
			if live.Has(v) {
				out[d]++
			}
		}
	}
	return out
}

// holds reports whether replicas live in these numbers per datacentre meet
// level, coordinated in datacentre local (-1: any).
func (c *cassandra) holds(level string, local int, counts []int) bool {
	sum := 0
	for _, n := range counts {
		sum += n
	}
	localQuorum := func(d int) bool { return c.rf[d] > 0 && counts[d] >= c.rf[d]/2+1 }
	localOne := func(d int) bool { return c.rf[d] > 0 && counts[d] >= 1 }
	someDC := func(ok func(int) bool) bool {
		if local >= 0 {
			return ok(local)
		}
		for d := range c.rf {
			if ok(d) {
				return true
			}
		}
		return false
	}
	switch level {
	case "ONE":
		return sum >= 1
	case "TWO":
		return sum >= 2
	case "THREE":
		return sum >= 3
	case "QUORUM", "SERIAL":
		return sum >= c.total()/2+1
	case "ALL":
		return sum == c.total()
	case "LOCAL_ONE":
		return someDC(localOne)
	case "LOCAL_QUORUM", "LOCAL_SERIAL":
		return someDC(localQuorum)
	case "EACH_QUORUM":
		for d := range c.rf {
			if c.rf[d] > 0 && !localQuorum(d) {
				return false
			}
		}
		return true
	}
	panic("systems: unknown consistency level " + level)
}

func (c *cassandra) rule(level string, local int) *quorum.Rule {
	labels := c.labels()
	params := set.Params{"consistency": level}
	if local >= 0 {
		params["dc"] = c.dcs[local]
	}
	return &quorum.Rule{Nodes: c.total(), NodeNames: labels, Kind: "cassandra", Params: params,
		Has: func(live *set.Set) bool { return c.holds(level, local, c.counts(live)) }}
}

func (c *cassandra) labels() []string {
	var labels []string
	for d, dc := range c.dcs {
		for r := 1; r <= c.rf[d]; r++ {
			if c.simple {
				labels = append(labels, fmt.Sprintf("r%d", r))
			} else {
				labels = append(labels, fmt.Sprintf("%s-r%d", dc, r))
			}
		}
	}
	return labels
}

func (c *cassandra) config() *Config {
	cfg := &Config{System: "cassandra", Labels: c.labels()}
	if !c.simple {
		for d, dc := range c.dcs {
			for range c.rf[d] {
				cfg.Domains = append(cfg.Domains, dc)
			}
		}
	}
	cfg.Reads = c.rule(c.read, c.readDC)
	leaf := nodeLeaves(cfg.Labels)
	cfg.ReadExpr = c.expr(leaf, c.read, c.readDC)
	if c.read == c.write && c.readDC == c.writeDC {
		cfg.Writes, cfg.WriteExpr = cfg.Reads, cfg.ReadExpr
	} else {
		cfg.Writes = c.rule(c.write, c.writeDC)
		cfg.WriteExpr = c.expr(leaf, c.write, c.writeDC)
	}
	cfg.Notes = c.notes()
	return cfg
}

// in names a datacentre in a note ("" under SimpleStrategy).
func (c *cassandra) in(d int) string {
	if c.simple {
		return ""
	}
	return " in " + c.dcs[d]
}

// spread describes replica numbers per datacentre: "2 replicas in dc1 and
// 1 in dc2".
func (c *cassandra) spread(counts []int) string {
	var parts []string
	for d, n := range counts {
		if n == 0 {
			continue
		}
		unit := ""
		if len(parts) == 0 {
			unit = " replica"
			if n > 1 {
				unit += "s"
			}
		}
		parts = append(parts, fmt.Sprintf("%d%s%s", n, unit, c.in(d)))
	}
	return strings.Join(parts, " and ")
}

// notes are the configuration's warnings, the most useful first: reads
// that can miss writes, ALL, a datacentre whose loss stops reads or
// writes, an even replication factor under a quorum level, and LOCAL_*
// levels served in any datacentre.
func (c *cassandra) notes() []Note {
	var notes []Note
	add := func(format string, args ...any) { notes = append(notes, Note{Text: fmt.Sprintf(format, args...)}) }
	if r, w, ok := c.missed(); ok {
		where := ""
		if strings.HasPrefix(c.read, "LOCAL_") {
			for d, n := range r {
				if n > 0 {
					where = c.in(d)
					break
				}
			}
		}
		add("%s reads with %s writes: a read%s can miss a write (a read from %s, a write acknowledged by %s)",
			c.read, c.write, where, c.spread(r), c.spread(w))
	}
	sides := []struct {
		what, level string
		local       int
	}{{"writes", c.write, c.writeDC}, {"reads", c.read, c.readDC}}
	if c.read == c.write && c.readDC == c.writeDC {
		sides = []struct {
			what, level string
			local       int
		}{{"reads and writes", c.read, c.readDC}}
	}
	for _, s := range sides {
		if s.level == "ALL" && c.total() > 1 {
			add("ALL %s stop when any one replica is down", s.what)
		}
	}
	withReplicas := 0
	for _, rf := range c.rf {
		if rf > 0 {
			withReplicas++
		}
	}
	if !c.simple && withReplicas > 1 {
	dcLoss:
		for _, s := range sides {
			if s.level == "ALL" || strings.HasPrefix(s.level, "LOCAL_") && s.local >= 0 {
				continue // said already, or the datacentre is chosen
			}
			for d := range c.dcs {
				if c.rf[d] == 0 {
					continue
				}
				counts := append([]int(nil), c.rf...)
				counts[d] = 0
				if !c.holds(s.level, s.local, counts) {
					if s.level == "EACH_QUORUM" {
						add("EACH_QUORUM %s stop when any one datacentre is lost", s.what)
					} else {
						add("%s %s need %d of the %d replicas: losing %s stops them", s.level, s.what, c.need(s.level), c.total(), c.dcs[d])
					}
					break dcLoss
				}
			}
		}
	}
	for _, s := range sides {
		switch s.level {
		case "QUORUM", "SERIAL":
			if t := c.total(); t%2 == 0 {
				add("%s %s over %d replicas need %d: they survive %s down, no more than over %d", s.level, s.what, t, t/2+1, countNoun(t/2-1, "replica"), t-1)
			}
		case "LOCAL_QUORUM", "LOCAL_SERIAL", "EACH_QUORUM":
			for d, rf := range c.rf {
				if rf > 0 && rf%2 == 0 && (s.local < 0 || s.local == d || s.level == "EACH_QUORUM") {
					add("RF %d%s: a local quorum is %d, which survives %s down, no more than RF %d", rf, c.in(d), rf/2+1, countNoun(rf/2-1, "replica"), rf-1)
					break
				}
			}
		}
	}
	for _, s := range sides {
		if strings.HasPrefix(s.level, "LOCAL_") && s.local < 0 && !c.simple && len(c.dcs) > 1 {
			add("no datacentre named for %s %s: they are taken to be served in any datacentre (add read_dc, write_dc or dc)", s.level, s.what)
		}
	}
	return uniqueNotes(notes)
}

// need is how many replicas a level over all replicas needs.
func (c *cassandra) need(level string) int {
	switch level {
	case "ONE":
		return 1
	case "TWO":
		return 2
	case "THREE":
		return 3
	case "ALL":
		return c.total()
	}
	return c.total()/2 + 1
}

// missed looks for a read and a write that share no replica: replica
// numbers per datacentre r and w with r + w ≤ RF in each, the read level
// holding on r and the write level on w. The levels are monotone in each
// datacentre's number, so the write may take every replica the read
// leaves.
func (c *cassandra) missed() (r, w []int, ok bool) {
	size := 1
	for _, rf := range c.rf {
		if size *= rf + 1; size > 1<<20 {
			return nil, nil, false // too many splits to try: verify decides
		}
	}
	r = make([]int, len(c.rf))
	w = make([]int, len(c.rf))
	for {
		for d := range c.rf {
			w[d] = c.rf[d] - r[d]
		}
		if c.holds(c.read, c.readDC, r) && c.holds(c.write, c.writeDC, w) {
			return r, w, true
		}
		d := 0
		for d < len(r) && r[d] == c.rf[d] {
			r[d] = 0
			d++
		}
		if d == len(r) {
			return nil, nil, false
		}
		r[d]++
	}
}

// uniqueNotes drops repeated notes, keeping the first.
func uniqueNotes(notes []Note) []Note {
	seen := map[string]bool{}
	out := notes[:0]
	for _, n := range notes {
		if !seen[n.Text] {
			seen[n.Text] = true
			out = append(out, n)
		}
	}
	return out
}

// expr writes a level as a quorum expression over the replicas' leaves.
func (c *cassandra) expr(leaf []*expr.Expr, level string, local int) *expr.Expr {
	dc := func(d int) []*expr.Expr { return leaf[c.first[d] : c.first[d]+c.rf[d]] }
	perDC := func(k func(rf int) int, all bool) *expr.Expr {
		if local >= 0 && !all {
			return mustChoose(k(c.rf[local]), dc(local))
		}
		var parts []*expr.Expr
		for d, rf := range c.rf {
			if rf > 0 {
				parts = append(parts, mustChoose(k(rf), dc(d)))
			}
		}
		if all {
			return expr.NewAnd(parts...)
		}
		return expr.NewOr(parts...)
	}
	quorum := func(rf int) int { return rf/2 + 1 }
	one := func(int) int { return 1 }
	switch level {
	case "LOCAL_ONE":
		return perDC(one, false)
	case "LOCAL_QUORUM", "LOCAL_SERIAL":
		return perDC(quorum, false)
	case "EACH_QUORUM":
		return perDC(quorum, true)
	}
	return mustChoose(c.need(level), leaf)
}
