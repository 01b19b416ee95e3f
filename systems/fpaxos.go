package systems

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// A Flexible Paxos configuration names the acceptors and the two kinds of
// quorum (Howard, Malkhi and Spiegelman, "Flexible Paxos: Quorum
// intersection revisited", 2016): phase 1 (leader election) and phase 2
// (replication). Only a phase-1 quorum and a phase-2 quorum need to meet.
//
//	nodes: a b c d e f     # or nodes: 6, for nodes named 1..6
//	phase1: 5              # any 5 nodes
//	phase2: 2              # any 2 nodes
//
// A phase may instead list its quorums, in braces, on one line or on
// several:
//
//	phase1: {a b c d} {c d e f}
//	phase2: {a c} {b d}
//
// Comments start with #. Names are separated by spaces or commas.
var fpaxosFormat = Format{
	Name:  "fpaxos",
	Sniff: sniffFPaxos,
	Parse: parseFPaxos,
}

// maxFPaxosNodes bounds the acceptors.
const maxFPaxosNodes = 1024

func sniffFPaxos(_ string, data []byte) bool {
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	if !containsFoldASCII(data, "phase") {
		return false // no key phase1 or phase2: no need to split
	}
	lines, err := splitConfLines("", data)
	if err != nil {
		return false
	}
	for _, l := range lines {
		if key, _, ok := cutKeyValue(l.text); ok && (key == "phase1" || key == "phase2") {
			return true
		}
	}
	return false
}

// fpPhase is one phase's quorums: any size nodes, or the sets listed.
type fpPhase struct {
	size  int
	lists []*set.Set
	line  int
}

func (p *fpPhase) has(live *set.Set) bool {
	if p.size > 0 {
		return live.Len() >= p.size
	}
	for _, q := range p.lists {
		if set.Subset(q, live) {
			return true
		}
	}
	return false
}

// expr writes the phase's quorums as an expression: choose(size, ...) or
// a sum of products.
func (p *fpPhase) expr(leaf []*expr.Expr) *expr.Expr {
	if p.size > 0 {
		return mustChoose(p.size, leaf)
	}
	var terms []*expr.Expr
	for _, q := range p.lists {
		var members []*expr.Expr
		for v := range q.All() {
			members = append(members, leaf[v])
		}
		terms = append(terms, expr.NewAnd(members...))
	}
	return expr.NewOr(terms...)
}

func parseFPaxos(name string, data []byte) (*Config, error) {
	lines, err := splitConfLines(name, data)
	if err != nil {
		return nil, err
	}
	var labels []string
	index := map[string]int{}
	nodesLine := 0
	phases := [2]fpPhase{}
	for _, l := range lines {
		key, value, ok := cutKeyValue(l.text)
		if !ok {
			return nil, syntaxErrorf(name, l.no, "want key: value, not %q", l.text)
		}
		switch key {
		case "nodes":
			if nodesLine > 0 {
				return nil, syntaxErrorf(name, l.no, "nodes given twice (first at line %d)", nodesLine)
			}
			nodesLine = l.no
			words := fpWords(value)
			if len(words) == 1 {
				if n, err := strconv.Atoi(words[0]); err == nil {
					if n < 1 || n > maxFPaxosNodes {
						return nil, syntaxErrorf(name, l.no, "nodes: %d: want 1 to %d nodes", n, maxFPaxosNodes)
					}
					for i := 1; i <= n; i++ {
						labels = append(labels, strconv.Itoa(i))
					}
					for i, lb := range labels {
						index[lb] = i
					}
					continue
				}
			}
			if len(words) == 0 {
				return nil, syntaxErrorf(name, l.no, "nodes: no node named")
			}
			if len(words) > maxFPaxosNodes {
				return nil, syntaxErrorf(name, l.no, "%d nodes: at most %d are read", len(words), maxFPaxosNodes)
			}
			for _, w := range words {
				if strings.ContainsAny(w, "{}") {
					return nil, syntaxErrorf(name, l.no, "nodes: %s is not a name", quoteName(w))
				}
				if _, dup := index[w]; dup {
					return nil, syntaxErrorf(name, l.no, "node %s named twice", quoteName(w))
				}
				index[w] = len(labels)
				labels = append(labels, w)
			}
		case "phase1", "phase2":
			p := &phases[key[5]-'1']
			if nodesLine == 0 {
				return nil, syntaxErrorf(name, l.no, "%s before nodes: name the nodes first (nodes: a b c, or nodes: 3)", key)
			}
			if p.line > 0 && (p.size > 0 || !strings.HasPrefix(value, "{")) {
				return nil, syntaxErrorf(name, l.no, "%s given twice (first at line %d)", key, p.line)
			}
			if p.line == 0 {
				p.line = l.no
			}
			if !strings.HasPrefix(value, "{") {
				k, err := strconv.Atoi(value)
				if err != nil {
					return nil, syntaxErrorf(name, l.no, "%s: want a quorum size or quorums in braces ({a b} {c d}), not %q", key, value)
				}
				if k < 1 || k > len(labels) {
					return nil, syntaxErrorf(name, l.no, "%s: a quorum of %d nodes out of %d", key, k, len(labels))
				}
				p.size = k
				continue
			}
			qs, err := fpLists(value, index, len(labels))
			if err != nil {
				return nil, syntaxErrorf(name, l.no, "%s: %v", key, err)
			}
			p.lists = append(p.lists, qs...)
		default:
			return nil, syntaxErrorf(name, l.no, "unknown key %q (want nodes, phase1 or phase2)", key)
		}
	}
	switch {
	case nodesLine == 0:
		return nil, syntaxErrorf(name, 0, "no nodes: add a line nodes: a b c (or nodes: 3)")
	case phases[0].line == 0:
		return nil, syntaxErrorf(name, 0, "no phase1: add a line phase1: SIZE or phase1: {a b} {c d}")
	case phases[1].line == 0:
		return nil, syntaxErrorf(name, 0, "no phase2: add a line phase2: SIZE or phase2: {a b} {c d}")
	}
	return fpConfig(labels, phases), nil
}

// fpWords splits names at spaces and commas.
func fpWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
}

// fpLists reads "{a b} {c d}" into sets.
func fpLists(s string, index map[string]int, n int) ([]*set.Set, error) {
	var out []*set.Set
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeft(strings.TrimSpace(s), ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			break
		}
		if s[0] != '{' {
			return nil, fmt.Errorf("want a quorum in braces, not %q", s)
		}
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return nil, fmt.Errorf("a quorum's brace is not closed")
		}
		body := s[1:end]
		if strings.ContainsAny(body, "{") {
			return nil, fmt.Errorf("a brace inside a quorum")
		}
		q := set.New(n)
		words := fpWords(body)
		if len(words) == 0 {
			return nil, fmt.Errorf("an empty quorum")
		}
		for _, w := range words {
			v, ok := index[w]
			if !ok {
				return nil, fmt.Errorf("unknown node %s (not in nodes)", quoteName(w))
			}
			if q.Has(v) {
				return nil, fmt.Errorf("node %s twice in a quorum", quoteName(w))
			}
			q.Add(v)
		}
		out = append(out, q)
		s = s[end+1:]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no quorum")
	}
	return out, nil
}

func fpConfig(labels []string, phases [2]fpPhase) *Config {
	n := len(labels)
	c := &Config{System: "fpaxos", Labels: labels}
	rules := [2]*quorum.Rule{}
	for i := range phases {
		p := &phases[i]
		params := set.Params{"phase": i + 1}
		if p.size > 0 {
			params["size"] = p.size
		}
		rules[i] = &quorum.Rule{Nodes: n, NodeNames: labels, Kind: "fpaxos", Params: params, Has: p.has}
	}
	c.Reads, c.Writes = rules[0], rules[1]
	leaf := nodeLeaves(labels)
	c.ReadExpr, c.WriteExpr = phases[0].expr(leaf), phases[1].expr(leaf)
	if phases[0].size > 0 && phases[0].size == phases[1].size || phases[0].size == 0 && phases[1].size == 0 && sameQuorumLists(phases[0].lists, phases[1].lists) {
		c.Writes, c.WriteExpr = c.Reads, c.ReadExpr
	}
	c.Notes = fpNotes(c, phases)
	return c
}

// sameQuorumLists reports whether two lists hold the same sets in the same order.
func sameQuorumLists(a, b []*set.Set) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !set.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (c *Config) names(s *set.Set) string {
	var out []string
	for v := range s.All() {
		out = append(out, c.Labels[v])
	}
	return strings.Join(out, ", ")
}

// fpNotes are the warnings, the most useful first: phase-1 and phase-2
// quorums that need not meet, the failures each phase survives when they
// differ, and phase-2 quorums larger than phase-1's.
func fpNotes(c *Config, phases [2]fpPhase) []Note {
	var notes []Note
	n := c.N()
	add := func(line int, format string, args ...any) {
		notes = append(notes, Note{Line: line, Text: fmt.Sprintf(format, args...)})
	}
	p1, p2 := &phases[0], &phases[1]
	if q1, q2, ok := fpMiss(c, phases); ok {
		why := ""
		if p1.size > 0 && p2.size > 0 {
			why = fmt.Sprintf(": %d + %d is not more than %d nodes", p1.size, p2.size, n)
		}
		add(p2.line, "phase-1 and phase-2 quorums need not meet%s (a leader elected by %s can miss a value accepted by %s)", why, c.names(q1), c.names(q2))
	}
	f1, ok1 := fpResilience(n, p1)
	f2, ok2 := fpResilience(n, p2)
	if ok1 && ok2 && f1 != f2 {
		stops, what := "stop", "replication"
		if min(f1, f2) == 0 {
			stops = "stops"
		}
		if f1 < f2 {
			what = "leader election"
		}
		add(0, "replication (phase 2) survives %s, leader election (phase 1) %s: %s %s %s",
			countNoun(f2, "failure"), countNoun(f1, "failure"), countNoun(min(f1, f2)+1, "failure"), stops, what)
	}
	if p1.size > 0 && p2.size > p1.size {
		add(p2.line, "phase-2 quorums (%d) are larger than phase-1 quorums (%d): phase 2 runs for every value, phase 1 only on a change of leader; swapping them keeps the intersection and makes the common case cheaper", p2.size, p1.size)
	}
	return notes
}

// fpMiss finds a phase-1 quorum and a phase-2 quorum that do not meet.
func fpMiss(c *Config, phases [2]fpPhase) (q1, q2 *set.Set, ok bool) {
	n := c.N()
	p1, p2 := &phases[0], &phases[1]
	if p1.size > 0 && p2.size > 0 {
		if p1.size+p2.size > n {
			return nil, nil, false
		}
		q1, q2 = set.New(n), set.New(n)
		for v := range p1.size {
			q1.Add(v)
		}
		for v := n - p2.size; v < n; v++ {
			q2.Add(v)
		}
		return q1, q2, true
	}
	// One side is a list: test the other side on each complement.
	list, other, swap := p1, p2, false
	if p1.size > 0 {
		list, other, swap = p2, p1, true
	}
	for _, q := range list.lists {
		rest := new(set.Set).Complement(q, n)
		if other.has(rest) {
			o := shrinkQuorum(rest, other.has)
			if swap {
				return o, q, true
			}
			return q, o, true
		}
	}
	return nil, nil, false
}

// fpResilience returns how many failures a phase survives, when that is
// cheap to know: n − size for a size, by brute force for lists over at most
// 20 nodes.
func fpResilience(n int, p *fpPhase) (int, bool) {
	if p.size > 0 {
		return n - p.size, true
	}
	if n > 20 {
		return 0, false
	}
	best := n
	for mask := 0; mask < 1<<n; mask++ {
		k := 0
		for m := mask; m != 0; m &= m - 1 {
			k++
		}
		if k >= best {
			continue
		}
		live := set.Full(n)
		for v := range n {
			if mask>>v&1 == 1 {
				live.Remove(v)
			}
		}
		if !p.has(live) {
			best = k
		}
	}
	return best - 1, true
}
