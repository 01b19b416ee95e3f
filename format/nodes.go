package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/coterie-dev/coterie/set"
)

// quorumBuilder collects the node ids of one quorum as a file lists them,
// catching repeats, and turns them into a set.
type quorumBuilder struct {
	ids  []int    // 0-based nodes
	seen []uint64 // the nodes of ids, as bits
}

func (b *quorumBuilder) reset() {
	for _, v := range b.ids {
		b.seen[v>>6] &^= 1 << (v & 63)
	}
	b.ids = b.ids[:0]
}

// add records 0-based node v, reporting a repeat at line.
func (b *quorumBuilder) add(v, line, base int) error {
	w := v >> 6
	if w >= len(b.seen) {
		b.seen = append(b.seen, make([]uint64, w+1-len(b.seen))...)
	}
	if b.seen[w]&(1<<(v&63)) != 0 {
		return errorf(line, "node %d appears twice in the same quorum", v+base)
	}
	b.seen[w] |= 1 << (v & 63)
	b.ids = append(b.ids, v)
	return nil
}

// top returns the largest node collected, or -1.
func (b *quorumBuilder) top() int {
	top := -1
	for _, v := range b.ids {
		top = max(top, v)
	}
	return top
}

// quorumList holds the quorums of one level as they are read, compactly:
// the node ids of all quorums in one arena, so that reading takes memory in
// proportion to the input, not to n times the number of quorums. A quorum
// whose bit set is shorter than its list of ids (most nodes up to its
// largest) is kept in the arena as that bit set, in 32-bit halves of its
// words. The bit sets are built at the end, once n is known and they fit
// the budget.
type quorumList struct {
	ids   []int32 // quorum after quorum: 0-based nodes, or the halves of its words
	end   []int   // quorum i is ids[end[i-1]:end[i]]
	bits  []bool  // quorum i is kept as bits
	line  []int32 // the line of each quorum
	top   []int32 // the largest node of each quorum
	nodes int     // the number of node ids of all quorums
}

func (l *quorumList) len() int { return len(l.end) }

func (l *quorumList) add(ids []int, top, line int) {
	halves := 2 * (top/64 + 1)
	if halves < len(ids) {
		lo := len(l.ids)
		l.ids = slices.Grow(l.ids, halves)[:lo+halves]
		clear(l.ids[lo:])
		for _, v := range ids {
			l.ids[lo+v/32] |= int32(uint32(1) << (v % 32))
		}
	} else {
		for _, v := range ids {
			l.ids = append(l.ids, int32(v))
		}
	}
	l.bits = append(l.bits, halves < len(ids))
	l.end = append(l.end, len(l.ids))
	l.line = append(l.line, int32(line))
	l.top = append(l.top, int32(top))
	l.nodes += len(ids)
}

// reserve makes room for about quorums quorums of ids node ids in all.
func (l *quorumList) reserve(quorums, ids int) {
	l.ids = slices.Grow(l.ids, ids)
	l.end = slices.Grow(l.end, quorums)
	l.bits = slices.Grow(l.bits, quorums)
	l.line = slices.Grow(l.line, quorums)
	l.top = slices.Grow(l.top, quorums)
}

// each calls fn with each node of quorum i, in the order the file lists
// them (increasing for a quorum kept as bits).
func (l *quorumList) each(i int, fn func(v int32)) {
	lo := 0
	if i > 0 {
		lo = l.end[i-1]
	}
	if !l.bits[i] {
		for _, v := range l.ids[lo:l.end[i]] {
			fn(v)
		}
		return
	}
	for k, h := range l.ids[lo:l.end[i]] {
		for x := uint32(h); x != 0; x &= x - 1 {
			fn(int32(32*k + bits.TrailingZeros32(x)))
		}
	}
}

// lists returns the node ids of the quorums, quorum after quorum, and
// where each ends.
func (l *quorumList) lists() ([]int32, []int) {
	if !slices.Contains(l.bits, true) {
		return l.ids, l.end
	}
	ids := make([]int32, 0, l.nodes)
	end := make([]int, len(l.end))
	for i := range l.end {
		l.each(i, func(v int32) { ids = append(ids, v) })
		end[i] = len(ids)
	}
	return ids, end
}

// sets builds the bit sets of the quorums, each sized to its largest node.
func (l *quorumList) sets() []set.Set {
	qs := make([]set.Set, l.len())
	var words set.Words
	for i := range qs {
		qs[i].Grow(int(l.top[i]) + 1)
		if !l.bits[i] {
			l.each(i, func(v int32) { qs[i].Add(int(v)) })
			continue
		}
		lo := 0
		if i > 0 {
			lo = l.end[i-1]
		}
		halves := l.ids[lo:l.end[i]]
		words = words[:0]
		for k := 0; k < len(halves); k += 2 {
			words = append(words, uint64(uint32(halves[k]))|uint64(uint32(halves[k+1]))<<32)
		}
		qs[i].UnionWords(words)
	}
	return qs
}

// parseOwner parses the 1-based node id of a quorum's owner, as parseID
// does, with "owner: " before the message of an error.
func parseOwner(tok string, line int) (int, error) {
	v, err := parseID(tok, line, 1)
	if se, ok := err.(*SyntaxError); ok {
		se.Msg = "owner: " + se.Msg
	}
	return v, err
}

// parseID parses a node id token as a file writes it (numbered from base)
// and returns the 0-based node. An id below base is a [*SyntaxError] that
// wraps [ErrBelowBase], so that a caller can say how to read the file.
func parseID[T string | []byte](tok T, line, base int) (int, error) {
	if len(tok) == 0 {
		return 0, errorf(line, "empty node id")
	}
	neg := tok[0] == '-'
	digits := tok
	if neg || tok[0] == '+' {
		digits = tok[1:]
	}
	if len(digits) == 0 {
		return 0, errorf(line, "%s is not a node id", strconv.Quote(short(string(tok))))
	}
	v := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, errorf(line, "%s is not a node id (node ids are whole numbers from %d)", strconv.Quote(short(string(tok))), base)
		}
		if v > set.MaxNodes {
			continue // keep scanning for bad characters; too large anyway
		}
		v = v*10 + int(c-'0')
	}
	switch {
	case neg && v != 0:
		return 0, errorf(line, "node id %s is negative (nodes are numbered from %d)", short(string(tok)), base)
	case v < base:
		e := errorf(line, "node id %s: nodes are numbered from %d", string(tok), base)
		e.err = ErrBelowBase
		return 0, e
	case v-base >= set.MaxNodes:
		return 0, errorf(line, "node id %s is too large (coterie handles at most %d nodes)", short(string(tok)), set.MaxNodes)
	}
	return v - base, nil
}

// parseCount parses a non-negative header number such as n, k, h or a
// threshold, naming it in errors.
func parseCount(what, tok string, line, lo, hi int) (int, error) {
	v, err := strconv.Atoi(tok)
	if errors.Is(err, strconv.ErrRange) {
		return 0, errorf(line, "%s = %s is out of range %d..%d", what, short(tok), lo, hi)
	}
	if err != nil {
		return 0, errorf(line, "%s: %s is not a whole number", what, strconv.Quote(short(tok)))
	}
	if v < lo || v > hi {
		return 0, errorf(line, "%s = %d is out of range %d..%d", what, v, lo, hi)
	}
	return v, nil
}

// decodeParams decodes a JSON object of construction parameters; whole
// numbers become int, other numbers float64.
func decodeParams(raw []byte, line int) (set.Params, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, errorf(line, "params: %v", err)
	}
	if len(m) == 0 {
		return nil, nil // {} and no params at all are the same
	}
	p := make(set.Params, len(m))
	for k, v := range m {
		p[k] = normalise(v)
	}
	if err := checkParams(p, line); err != nil {
		return nil, err
	}
	return p, nil
}

// short cuts a token for an error message to a length one can read.
func short(tok string) string {
	const most = 40
	if len(tok) > most {
		return tok[:most] + "..."
	}
	return tok
}

func normalise(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && i >= math.MinInt && i <= math.MaxInt {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
	}
	return v
}

// encodeParams writes params as a JSON object with sorted keys and a space
// after each colon and comma: {"k": 2, "n": 7}.
func encodeParams(p set.Params) (string, error) {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		vb, err := json.Marshal(p[k])
		if err != nil {
			return "", fmt.Errorf("format: params %q: %w", k, err)
		}
		vb = EscapeJSONControls(vb)
		buf = append(buf, jsonString(k)...)
		buf = append(buf, ": "...)
		buf = append(buf, vb...)
	}
	buf = append(buf, '}')
	return string(buf), nil
}

// EscapeJSONControls rewrites the DEL and C1 control characters that
// encoding/json leaves raw in strings as \u00XX (in valid JSON they occur
// only inside strings), so that the output holds no raw control
// character; it returns js itself when there is none.
func EscapeJSONControls(js []byte) []byte {
	clean := true
	for _, r := range string(js) {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			clean = false
			break
		}
	}
	if clean {
		return js
	}
	out := make([]byte, 0, len(js)+12)
	for _, r := range string(js) {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// encodeLabels writes labels as a JSON array of strings.
func encodeLabels(labels []string) string {
	buf := []byte{'['}
	for i, l := range labels {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = append(buf, jsonString(l)...)
	}
	return string(append(buf, ']'))
}

// jsonString returns s as a JSON string: quoted, with every control
// character (C0, DEL, C1) and the line and paragraph separators escaped as
// \u00XX, bytes that are not UTF-8 replaced by U+FFFD, and <, > and & left
// as they are. No raw control character reaches the file, or a terminal
// showing it.
func jsonString(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029:
			b = fmt.Appendf(b, `\u%04x`, r)
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, '"'))
}

// csvLabel is how a label is kept in a CSV file's "# labels:" header: a
// label that a spreadsheet could take for a formula (starting with = + - @,
// a tab or a carriage return) gets a leading ', and so does one that
// already starts with ', so that reading removes exactly one.
func csvLabel(l string) string {
	if l != "" && strings.ContainsRune("=+-@\t\r'", rune(l[0])) {
		return "'" + l
	}
	return l
}

// uncsvLabel undoes [csvLabel].
func uncsvLabel(l string) string { return strings.TrimPrefix(l, "'") }

// csvHeaderValue makes the JSON of a CSV header comment hold no comma
// inside its strings (written \u002c instead), so that a spreadsheet that
// opens the file splits it only between JSON values and no cell starts
// inside a string.
func csvHeaderValue(js string) string {
	if !strings.Contains(js, ",") {
		return js
	}
	var b strings.Builder
	in, esc := false, false
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in && c == ',':
			b.WriteString(`\u002c`)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// headerValue is how a free-text value (the kind) is written in a text or
// CSV header comment: as it is when it reads back as itself, else as a
// JSON string. A value read back that starts with a double quote is
// decoded as a JSON string, so both forms read.
func headerValue(v string, csv bool) string {
	plain := v != "" && v == strings.TrimSpace(v) && v[0] != '"' && !(csv && strings.Contains(v, ",")) && utf8.ValidString(v)
	for _, r := range v {
		if !plain {
			break
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 {
			plain = false
		}
	}
	if plain {
		return v
	}
	js := jsonString(v)
	if csv {
		js = csvHeaderValue(js)
	}
	return js
}
