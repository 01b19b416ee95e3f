package format

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// Universe names the nodes of a read-write system: node ids 1..N, some with
// labels. Expressions are bound against it ([Universe.Bind]); until it is
// fixed, unknown labels become new nodes.
type Universe struct {
	N      int
	Labels []string // Labels[i] is node i's label, or ""
	Fixed  bool     // no new nodes: an unknown label is an error
	index  map[string]int
}

// NewUniverse returns the universe of n nodes with the given labels (nil
// for none); fixed forbids new nodes.
func NewUniverse(n int, labels []string, fixed bool) *Universe {
	u := &Universe{N: n, Fixed: fixed, index: map[string]int{}}
	u.Labels = make([]string, n)
	copy(u.Labels, labels)
	for i, l := range u.Labels {
		if l != "" {
			if _, dup := u.index[l]; !dup {
				u.index[l] = i
			}
		}
	}
	return u
}

// Lookup returns the 0-based node a name stands for: a decimal id 1..N or
// a label.
func (u *Universe) Lookup(name string) (int, bool) {
	if v, err := strconv.Atoi(name); err == nil {
		return v - 1, v >= 1 && v <= u.N
	}
	v, ok := u.index[name]
	return v, ok
}

// Bind binds the leaves of the expressions: ids stand for themselves (and
// widen N unless fixed), labels for their nodes; a label not yet known gets
// the next id after every id used (in order of first appearance) unless the
// universe is fixed. The expressions may be nil.
func (u *Universe) Bind(es ...*expr.Expr) ([]*expr.Expr, error) {
	for _, e := range es {
		if e == nil {
			continue
		}
		var err error
		e.Leaves(func(l *expr.Expr) {
			if v, e2 := strconv.Atoi(l.Name); e2 == nil && err == nil {
				if v > u.N {
					if u.Fixed {
						err = fmt.Errorf("node %d is not in 1..%d", v, u.N)
						return
					}
					if v > set.MaxNodes {
						err = fmt.Errorf("node %d is above the limit of %d nodes", v, set.MaxNodes)
						return
					}
					u.grow(v)
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]*expr.Expr, len(es))
	for i, e := range es {
		if e == nil {
			continue
		}
		b, err := e.Bind(func(name string) (int, error) {
			if v, ok := u.Lookup(name); ok {
				return v, nil
			}
			if _, err := strconv.Atoi(name); err == nil || u.Fixed {
				return 0, fmt.Errorf("unknown node %s", name)
			}
			u.grow(u.N + 1)
			u.Labels[u.N-1] = name
			u.index[name] = u.N - 1
			return u.N - 1, nil
		})
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (u *Universe) grow(n int) {
	for u.N < n {
		u.Labels = append(u.Labels, "")
		u.N++
	}
}

// RWFile is a read-write system as a JSON file holds it: "reads" and
// "writes", each a list of quorums (node ids or labels), a threshold
// {"threshold": k} or an expression string; one of them may be missing.
type RWFile struct {
	N      int
	Labels []string
	// Reads and Writes are bound expressions (nil when absent);
	// ReadList and WriteList the same sides as families when the file
	// listed quorums or gave a threshold.
	Reads, Writes         *expr.Expr
	ReadList, WriteList   *set.Family
	ReadsLine, WritesLine int
	// Nodes and Domains are the failure domains the file gives: its
	// "nodes" (rwdomains.go) and "domains".
	Nodes   []NodeAttrs
	Domains []DomainP
}

// IsRW reports whether data is a JSON object with a top-level "reads" or
// "writes" field: a read-write system rather than a coterie.
func IsRW(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(`"reads"`)) && !bytes.Contains(t, []byte(`"writes"`)) {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, r := top["reads"]
	_, w := top["writes"]
	return r || w
}

// ReadRW reads a read-write system from JSON:
//
//	{"format": "coterie/1", "n": 6, "labels": ["a", …],
//	 "reads": "a*b*c + d*e*f", "writes": [[1, 4], [2, 5], …]}
//
// "format" and "n" are optional here (without n, the nodes are those the
// quorums name). Errors are *[Error] with the line of the field.
func ReadRW(data []byte) (*RWFile, error) { return readRW(data, 0) }

// readRW is ReadRW with the expressions' trees bounded by maxBytes (see
// [ReadRWAnyLimit]).
func readRW(data []byte, maxBytes int64) (*RWFile, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, errorf(lineAt(data, int(se.Offset)), "%v", err)
		}
		return nil, errorf(1, "%v", err)
	}
	line := func(key string) int {
		i := bytes.Index(data, []byte(strconv.Quote(key)))
		if i < 0 {
			return 1
		}
		return lineAt(data, i)
	}
	f := &RWFile{}
	fixed := false
	keys := make([]string, 0, len(top))
	for key := range top {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		raw := top[key]
		switch key {
		case "format":
			var tag string
			if json.Unmarshal(raw, &tag) != nil || tag != Tag {
				return nil, errorf(line(key), "unknown format tag %s (this version reads %q)", raw, Tag)
			}
		case "n":
			if json.Unmarshal(raw, &f.N) != nil || f.N < 1 || f.N > set.MaxNodes {
				return nil, errorf(line(key), "n must be a whole number in 1..%d", set.MaxNodes)
			}
			fixed = true
		case "labels":
			if json.Unmarshal(raw, &f.Labels) != nil {
				return nil, errorf(line(key), "labels must be a list of strings")
			}
		case "reads", "writes", "kind", "params", "nodes", "domains":
		default:
			return nil, errorf(line(key), "unknown field %q in a read-write system (want format, n, labels, reads, writes, nodes, domains)", key)
		}
	}
	if fixed && len(f.Labels) > f.N {
		return nil, errorf(line("labels"), "%d labels for %d nodes", len(f.Labels), f.N)
	}
	sides := [2]*rawSide{{key: "reads", line: line("reads")}, {key: "writes", line: line("writes")}}
	for _, sd := range sides {
		raw, ok := top[sd.key]
		if !ok {
			continue
		}
		sd.given = true
		var text string
		var th struct {
			Threshold int `json:"threshold"`
		}
		var list [][]json.RawMessage
		switch {
		case json.Unmarshal(raw, &text) == nil:
			e, err := expr.ParseLimit(text, maxBytes)
			if err != nil {
				return nil, exprError(sd.line, fmt.Sprintf("%q", sd.key), err)
			}
			sd.expr = e
		case json.Unmarshal(raw, &th) == nil && th.Threshold > 0:
			sd.threshold = th.Threshold
		case json.Unmarshal(raw, &list) == nil:
			for qi, q := range list {
				var names []string
				for _, v := range q {
					var name string
					if json.Unmarshal(v, &name) != nil {
						var id int
						if json.Unmarshal(v, &id) != nil || id < 1 {
							return nil, errorf(sd.line, "%q: quorum %d: %s is not a node id (1..n) or label", sd.key, qi+1, v)
						}
						name = strconv.Itoa(id)
					}
					names = append(names, name)
				}
				sd.lists = append(sd.lists, names)
				sd.lines = append(sd.lines, sd.line)
			}
		default:
			return nil, errorf(sd.line, "%q must be an expression string, a list of quorums or {\"threshold\": k}", sd.key)
		}
	}
	out, err := buildRW(f.N, fixed, f.Labels, sides)
	if err != nil {
		return nil, err
	}
	if err := readRWDomains(out, top, line); err != nil {
		return nil, err
	}
	return out, nil
}

// rawSide is one side of a read-write file as read, before binding.
type rawSide struct {
	key       string
	line      int // where the side starts
	given     bool
	expr      *expr.Expr
	lists     [][]string // quorums as node names
	lines     []int      // each quorum's line
	threshold int
}

// buildRW binds the sides of a read-write file to its nodes.
func buildRW(n int, fixed bool, labels []string, sides [2]*rawSide) (*RWFile, error) {
	if !sides[0].given && !sides[1].given {
		return nil, errorf(1, "a read-write system needs reads or writes")
	}
	u := NewUniverse(max(n, len(labels)), labels, fixed)
	f := &RWFile{ReadsLine: sides[0].line, WritesLine: sides[1].line}
	for _, sd := range sides {
		if sd.given && sd.expr == nil && sd.threshold == 0 {
			if len(sd.lists) == 0 {
				return nil, errorf(sd.line, "%s: no quorums", sd.key)
			}
			var terms []*expr.Expr
			for qi, names := range sd.lists {
				if len(names) == 0 {
					return nil, errorf(sd.lines[qi], "%s: quorum %d is empty", sd.key, qi+1)
				}
				var leaves []*expr.Expr
				for _, name := range names {
					leaves = append(leaves, expr.Named(name))
				}
				terms = append(terms, expr.NewAnd(leaves...))
			}
			sd.expr = expr.NewOr(terms...)
		}
		if sd.expr == nil {
			continue
		}
		b, err := u.Bind(sd.expr)
		if err != nil {
			return nil, errorf(sd.line, "%s: %v", sd.key, err)
		}
		sd.expr = b[0]
	}
	if u.N == 0 {
		return nil, errorf(1, "a threshold side needs n")
	}
	f.N, f.Labels = u.N, u.Labels
	for si, sd := range sides {
		e, list := &f.Reads, &f.ReadList
		if si == 1 {
			e, list = &f.Writes, &f.WriteList
		}
		*e = sd.expr
		switch {
		case sd.threshold > 0:
			if sd.threshold > f.N {
				return nil, errorf(sd.line, "%s: threshold %d is more than n = %d", sd.key, sd.threshold, f.N)
			}
			*list = set.NewThreshold(f.N, sd.threshold)
			*e = expr.Threshold(f.N, sd.threshold)
		case sd.lists != nil:
			fam := set.NewFamily(f.N)
			for qi, names := range sd.lists {
				q := set.New(f.N)
				for _, name := range names {
					v, _ := u.Lookup(name)
					if q.Has(v) {
						return nil, errorf(sd.lines[qi], "%s: quorum %d: node %s appears twice", sd.key, qi+1, name)
					}
					q.Add(v)
				}
				fam.Add(q, set.NoOwner)
			}
			*list = fam
		}
	}
	return f, nil
}

// IsRWText reports whether data is a text file with a "# reads" or
// "# writes" section line: a read-write system in text form.
func IsRWText(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		return false
	}
	if !bytes.Contains(data, []byte("reads")) && !bytes.Contains(data, []byte("writes")) {
		return false // no section line: no need to go through the lines
	}
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		if _, _, ok := sectionLine(string(line)); ok {
			return true
		}
	}
	return false
}

// sectionLine recognises "# reads", "# writes", optionally with ": EXPR".
func sectionLine(line string) (key, rest string, ok bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "#") {
		return "", "", false
	}
	l = strings.TrimSpace(l[1:])
	for _, k := range []string{"reads", "writes"} {
		if l == k {
			return k, "", true
		}
		if strings.HasPrefix(l, k) && strings.HasPrefix(strings.TrimSpace(l[len(k):]), ":") {
			return k, strings.TrimSpace(strings.TrimSpace(l[len(k):])[1:]), true
		}
	}
	return "", "", false
}

// ReadRWText reads a read-write system in text form: optional header
// comments "# n: 6" and "# labels: [\"a\", …]", then a section per side —
// a line "# reads" followed by one quorum per line (node ids or labels,
// separated by spaces or commas), or "# reads: EXPR" with an expression;
// the same for "# writes". Other "#" lines and blank lines are ignored.
func ReadRWText(data []byte) (*RWFile, error) { return readRWText(data, 0) }

// readRWText is ReadRWText with the expressions' trees bounded by
// maxBytes (see [ReadRWAnyLimit]).
func readRWText(data []byte, maxBytes int64) (*RWFile, error) {
	sides := [2]*rawSide{{key: "reads"}, {key: "writes"}}
	var cur *rawSide
	n, fixed := 0, false
	var labels []string
	for i, line := range strings.Split(string(data), "\n") {
		ln := i + 1
		if key, rest, ok := sectionLine(line); ok {
			cur = sides[0]
			if key == "writes" {
				cur = sides[1]
			}
			if cur.given {
				return nil, errorf(ln, "a second %s section", key)
			}
			cur.given, cur.line = true, ln
			if rest != "" {
				e, err := expr.ParseLimit(rest, maxBytes)
				if err != nil {
					return nil, exprError(ln, key, err)
				}
				cur.expr = e
				cur = nil // no quorum lines follow an expression
			}
			continue
		}
		l := strings.TrimSpace(line)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "#") {
			key, value, ok := strings.Cut(strings.TrimSpace(l[1:]), ":")
			switch strings.TrimSpace(key) {
			case "n":
				v, err := strconv.Atoi(strings.TrimSpace(value))
				if !ok || err != nil || v < 1 || v > set.MaxNodes {
					return nil, errorf(ln, "n must be a whole number in 1..%d", set.MaxNodes)
				}
				n, fixed = v, true
			case "labels":
				if err := json.Unmarshal([]byte(value), &labels); err != nil {
					return nil, errorf(ln, "labels: want a JSON array of strings: %v", err)
				}
			}
			continue
		}
		if cur == nil {
			return nil, errorf(ln, "a quorum outside a \"# reads\" or \"# writes\" section")
		}
		names := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\r' })
		for _, name := range names {
			if v, err := strconv.Atoi(name); err == nil && v < 1 {
				return nil, errorf(ln, "node id %d is not in 1..n", v)
			}
		}
		cur.lists = append(cur.lists, names)
		cur.lines = append(cur.lines, ln)
	}
	if fixed && len(labels) > n {
		return nil, errorf(1, "%d labels for %d nodes", len(labels), n)
	}
	return buildRW(n, fixed, labels, sides)
}

func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// NodeAttrs is one row of a nodes file; nil fields were left empty.
type NodeAttrs struct {
	Node                                              int // 0-based
	Line                                              int
	Label                                             string
	Capacity, ReadCapacity, WriteCapacity, Latency, P *big.Rat
	// Domain is the node's failure-domain path, outermost first
	// ("eu-west/az-b/rack-7"); empty when not given.
	Domain string
	// DomainLevels names the levels of Domain when the file gave them as
	// separate columns (region, zone, rack); nil otherwise.
	DomainLevels []string
}

// domainColumns are the separate columns a nodes file may give a
// domain path in, outermost first, instead of one domain column.
var domainColumns = []string{"region", "zone", "rack"}

// nodeColumns are the columns a nodes file may have.
var nodeColumns = []string{"node", "label", "capacity", "read_capacity", "write_capacity", "latency", "p", "domain", "region", "zone", "rack"}

// ReadNodes reads a nodes file: CSV with a header naming any of the
// columns node, label, capacity, read_capacity, write_capacity, latency, p,
// domain (node required; the others optional, and cells may be empty).
// domain is a failure-domain path checked by [domain.ParsePath]; the
// columns region, zone and rack (any of them, instead of domain) build
// the same path from their non-empty cells, outermost first. node is a
// label or an id that resolve knows. Capacities must be positive, latency
// non-negative (seconds), p in [0, 1]; numbers are read exactly ("0.1" is
// 1/10). Errors are *[Error] with the line.
func ReadNodes(data []byte, resolve func(name string) (int, bool)) ([]NodeAttrs, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return nil, errorf(1, "the nodes file is empty (want a header: %s)", strings.Join(nodeColumns, ","))
	}
	if err != nil {
		return nil, csvError(err)
	}
	hline, _ := r.FieldPos(0)
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if !containsString(nodeColumns, h) {
			return nil, errorf(hline, "unknown column %q (want %s)", h, strings.Join(nodeColumns, ", "))
		}
		if _, dup := col[h]; dup {
			return nil, errorf(hline, "column %q given twice", h)
		}
		col[h] = i
	}
	if _, ok := col["node"]; !ok {
		return nil, errorf(hline, "no \"node\" column")
	}
	var levels []string
	for _, c := range domainColumns {
		if _, ok := col[c]; ok {
			levels = append(levels, c)
		}
	}
	if _, ok := col["domain"]; ok && levels != nil {
		return nil, errorf(hline, "give the domain column or the %s columns, not both", strings.Join(levels, ", "))
	}
	var out []NodeAttrs
	seen := map[int]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(header) {
			return nil, errorf(line, "%d cells, the header has %d", len(rec), len(header))
		}
		cell := func(name string) string {
			if i, ok := col[name]; ok {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		name := cell("node")
		if name == "" {
			return nil, errorf(line, "empty node")
		}
		v, ok := resolve(name)
		if !ok {
			return nil, errorf(line, "unknown node %s", name)
		}
		if prev, dup := seen[v]; dup {
			return nil, errorf(line, "node %s already described on line %d", name, prev)
		}
		seen[v] = line
		a := NodeAttrs{Node: v, Line: line, Label: cell("label"), Domain: cell("domain"), DomainLevels: levels}
		if levels != nil {
			var parts []string
			for i, c := range levels {
				x := cell(c)
				if x == "" {
					continue
				}
				if len(parts) < i {
					return nil, errorf(line, "node %s: %s %q without a %s", name, c, x, levels[len(parts)])
				}
				parts = append(parts, x)
			}
			a.Domain = strings.Join(parts, "/")
		}
		if a.Domain != "" {
			if _, err := domain.ParsePath(a.Domain); err != nil {
				return nil, errorf(line, "node %s: %v", name, err)
			}
		}
		for _, fld := range []struct {
			name string
			dst  **big.Rat
			ok   func(*big.Rat) bool
			want string
		}{
			{"capacity", &a.Capacity, positive, "a positive number"},
			{"read_capacity", &a.ReadCapacity, positive, "a positive number"},
			{"write_capacity", &a.WriteCapacity, positive, "a positive number"},
			{"latency", &a.Latency, func(x *big.Rat) bool { return x.Sign() >= 0 }, "a non-negative number of seconds"},
			{"p", &a.P, func(x *big.Rat) bool { return x.Sign() >= 0 && x.Cmp(big.NewRat(1, 1)) <= 0 }, "a probability in [0, 1]"},
		} {
			c := cell(fld.name)
			if c == "" {
				continue
			}
			x, ok := new(big.Rat).SetString(c)
			if !ok || !fld.ok(x) {
				return nil, errorf(line, "%s %q of node %s is not %s", fld.name, c, name, fld.want)
			}
			*fld.dst = x
		}
		out = append(out, a)
	}
	return out, nil
}

func positive(x *big.Rat) bool { return x.Sign() > 0 }

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return errorf(pe.Line, "%v", pe.Err)
	}
	return errorf(0, "%v", err)
}

// exprMsg is what an expression's parse error says, without the package's
// prefix: "column 3: want a name".
func exprMsg(err error) string {
	var se *expr.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("column %d: %s", se.Col, se.Msg)
	}
	return err.Error()
}

// IsRWAny reports whether data holds a read-write system in either form:
// JSON ([IsRW]) or text ([IsRWText]).
func IsRWAny(data []byte) bool { return IsRW(data) || IsRWText(data) }

// ReadRWAny reads a read-write system in the form data is in: JSON when
// [IsRW], text otherwise.
func ReadRWAny(data []byte) (*RWFile, error) { return ReadRWAnyLimit(data, 0) }

// ReadRWAnyLimit is [ReadRWAny] refusing an expression whose tree would
// take more than maxBytes (0: no limit) with an *[Error] at its line that
// wraps [set.ErrMemoryBudget].
func ReadRWAnyLimit(data []byte, maxBytes int64) (*RWFile, error) {
	if IsRW(data) {
		return readRW(data, maxBytes)
	}
	return readRWText(data, maxBytes)
}

// exprError is the error of the expression of side at line.
func exprError(line int, side string, err error) error {
	e := errorf(line, "%s: %v", side, exprMsg(err))
	if errors.Is(err, set.ErrMemoryBudget) {
		e.err = set.ErrMemoryBudget
	}
	return e
}
