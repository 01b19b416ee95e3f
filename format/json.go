package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// jscan is a small JSON scanner over a whole input that knows which line it
// is on, so that every problem in a file, down to one node id, is reported
// with its line. It reads exactly the shape of coterie's JSON files and
// skips nothing silently.
type jscan struct {
	data  []byte
	pos   int
	line  int
	depth int // of the values skip is inside
}

// maxDepth bounds the nesting of the values a JSON file may hold.
const maxDepth = 64

func (s *jscan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		s.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *jscan) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// eof reports a truncated file at the line of its last non-blank byte.
func (s *jscan) eof() *SyntaxError {
	end := len(bytes.TrimRight(s.data, " \t\r\n"))
	return errorf(1+bytes.Count(s.data[:end], []byte{'\n'}), "unexpected end of file: the JSON is truncated")
}

func (s *jscan) unexpected(want string) *SyntaxError {
	if s.pos >= len(s.data) {
		return s.eof()
	}
	c := s.data[s.pos]
	if c < ' ' || c > '~' {
		return errorf(s.line, "want %s, found byte 0x%02x", want, c)
	}
	return errorf(s.line, "want %s, found %q", want, string(c))
}

func (s *jscan) expect(c byte) error {
	if s.peek() != c {
		return s.unexpected(strconv.Quote(string(c)))
	}
	s.pos++
	return nil
}

// rawString returns the bytes of a JSON string token, quotes included.
func (s *jscan) rawString() ([]byte, error) {
	if s.peek() != '"' {
		return nil, s.unexpected("a string")
	}
	start := s.pos
	s.pos++
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '\\':
			s.pos += 2
			continue
		case c == '"':
			s.pos++
			return s.data[start:s.pos], nil
		case c == '\n':
			return nil, errorf(s.line, "a line break inside a string")
		}
		s.pos++
	}
	return nil, s.eof()
}

func (s *jscan) str() (string, error) {
	raw, err := s.rawString()
	if err != nil {
		return "", err
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", errorf(s.line, "bad string %s: %v", short(string(raw)), err)
	}
	return v, nil
}

// number returns the token of a JSON number (or of any bare word, so that
// errors can quote it).
func (s *jscan) number() string {
	s.ws()
	start := s.pos
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		if c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ':' || c == '[' || c == '{' || c == '"' {
			break
		}
		s.pos++
	}
	return string(s.data[start:s.pos])
}

// count reads a whole number in lo..hi, naming it in errors.
func (s *jscan) count(what string, lo, hi int) (int, error) {
	c := s.peek()
	if c == 0 {
		return 0, s.eof()
	}
	if c == '"' || c == '[' || c == '{' {
		return 0, errorf(s.line, "%s must be a whole number", what)
	}
	return parseCount(what, s.number(), s.line, lo, hi)
}

// skip passes over one JSON value of any shape and returns its bytes.
func (s *jscan) skip() ([]byte, error) {
	c := s.peek()
	start := s.pos
	switch c {
	case 0:
		return nil, s.eof()
	case '"':
		if _, err := s.rawString(); err != nil {
			return nil, err
		}
	case '{', '[':
		if s.depth >= maxDepth {
			return nil, errorf(s.line, "values nested more than %d deep", maxDepth)
		}
		s.depth++
		defer func() { s.depth-- }()
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.pos++
		if s.peek() == closer {
			s.pos++
			break
		}
		for {
			if c == '{' {
				if _, err := s.rawString(); err != nil {
					return nil, err
				}
				if err := s.expect(':'); err != nil {
					return nil, err
				}
			}
			if _, err := s.skip(); err != nil {
				return nil, err
			}
			if s.peek() == ',' {
				s.pos++
				continue
			}
			if err := s.expect(closer); err != nil {
				return nil, err
			}
			break
		}
	default:
		if tok := s.number(); tok == "" {
			return nil, s.unexpected("a value")
		}
	}
	return s.data[start:s.pos], nil
}

// isNull consumes a null literal if one comes next.
func (s *jscan) isNull() bool {
	if s.peek() == 'n' && len(s.data)-s.pos >= 4 && string(s.data[s.pos:s.pos+4]) == "null" {
		s.pos += 4
		return true
	}
	return false
}

// array calls elem for each element of a JSON array.
func (s *jscan) array(what string, elem func() error) error {
	if s.peek() != '[' {
		return s.unexpected(what + " as an array [...]")
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.unexpected("\",\" or \"]\" in " + what)
		}
	}
}

// object calls field for each key of a JSON object, refusing repeated keys.
func (s *jscan) object(what string, field func(key string, line int) error) error {
	if s.peek() != '{' {
		return s.unexpected(what + " as an object {...}")
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	seen := map[string]int{}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if first, dup := seen[key]; dup {
			return errorf(s.line, "%q given twice in %s (first on line %d)", short(key), what, first)
		}
		seen[key] = s.line
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := field(key, s.line); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.unexpected("\",\" or \"}\" in " + what)
		}
	}
}

// quorums reads an array of quorums into l.
func (s *jscan) quorums(l *level, b *budget) error {
	var qb quorumBuilder
	l.listed = true
	return s.array(`"quorums"`, func() error {
		qb.reset()
		s.peek() // to the quorum's '[', so that line is its line
		line := s.line
		err := s.array("a quorum", func() error {
			c := s.peek()
			if c == 0 {
				return s.eof()
			}
			if c == '[' || c == '{' || c == '"' {
				return errorf(s.line, "a node id must be a number")
			}
			tok := s.number()
			v, err := parseID(tok, s.line, 1)
			if err != nil {
				if _, ferr := strconv.ParseFloat(tok, 64); ferr == nil && strings.ContainsAny(tok, ".eE") {
					if f, _ := strconv.ParseFloat(tok, 64); f != math.Trunc(f) || f < 1 {
						return errorf(s.line, "node id %s is not a whole number from 1", short(tok))
					}
					return errorf(s.line, "node id %s: write node ids as plain whole numbers", short(tok))
				}
				return err
			}
			return qb.add(v, s.line, 1)
		})
		if err != nil {
			return err
		}
		return l.add(b, &qb, line)
	})
}

// owners reads an "owners" array (ids or null) into l.
func (s *jscan) owners(l *level) error {
	if s.isNull() {
		return nil
	}
	return s.array(`"owners"`, func() error {
		if s.isNull() {
			l.owners = append(l.owners, set.NoOwner)
			l.ownerLines = append(l.ownerLines, int32(s.line))
			return nil
		}
		v, err := parseOwner(s.number(), s.line)
		if err != nil {
			return err
		}
		l.owners = append(l.owners, int32(v))
		l.ownerLines = append(l.ownerLines, int32(s.line))
		l.owned = true
		return nil
	})
}

// levelField reads a family's own fields: quorums or threshold, and owners.
func (s *jscan) levelField(l *level, b *budget, key string, line int) (bool, error) {
	switch key {
	case "quorums":
		return true, s.quorums(l, b)
	case "threshold":
		w, err := s.count("threshold", 1, set.MaxNodes)
		l.threshold, l.thrLine = w, line
		return true, err
	case "owners":
		return true, s.owners(l)
	}
	return false, nil
}

// finishLevel checks a JSON level's parts against each other.
func finishLevel(l *level, what string, line int) error {
	hasQ := l.listed
	switch {
	case l.threshold > 0 && hasQ:
		return errorf(l.thrLine, "%s has both \"quorums\" and \"threshold\"", what)
	case l.threshold == 0 && !hasQ:
		return errorf(line, "%s has neither \"quorums\" nor \"threshold\"", what)
	case l.threshold > 0 && len(l.owners) > 0:
		return errorf(l.thrLine, "%s is a threshold and has owners", what)
	case hasQ && l.qs.len() == 0:
		return errorf(line, "%s has no quorums", what)
	}
	if len(l.owners) > 0 && len(l.owners) != l.qs.len() {
		return errorf(int(l.ownerLines[len(l.ownerLines)-1]), "%d owners for %d quorums", len(l.owners), l.qs.len())
	}
	if len(l.owners) == 0 {
		l.owners = make([]int32, l.qs.len())
		l.ownerLines = make([]int32, l.qs.len())
		for i := range l.owners {
			l.owners[i] = set.NoOwner
		}
	}
	return nil
}

// readJSON reads coterie's canonical JSON.
func readJSON(data []byte, b *budget) (set.System, error) {
	r := &jsonReader{s: &jscan{data: data, line: 1}, hd: newHeader(b), b: b, top: &level{}}
	if r.s.peek() == 0 {
		return set.System{}, errorf(0, "the file is empty")
	}
	if err := r.s.object("the file", r.field); err != nil {
		return set.System{}, err
	}
	if err := r.finish(); err != nil {
		return set.System{}, err
	}
	if r.hd.implicit {
		return r.hd.implicitJSON(r.top, r.hasArbiters)
	}
	return r.hd.system(r.s.line)
}

// jsonReader is the state of readJSON: the scanner, the header fields and
// levels read so far, and which required fields were seen.
type jsonReader struct {
	s        *jscan
	hd       *header
	b        *budget
	top      *level   // quorums, threshold and owners at the top
	arbiters []*level // the levels of "arbiters"

	hasArbiters, hasFormat, hasN bool
}

// field reads the value of the top-level field key, on line.
func (r *jsonReader) field(key string, line int) error {
	s, hd := r.s, r.hd
	if ok, err := s.levelField(r.top, r.b, key, line); ok {
		return err
	}
	switch key {
	case "format":
		v, err := s.str()
		if err != nil {
			return err
		}
		if v != Tag {
			return errorf(line, "unknown format tag %q (this version reads %q)", short(v), Tag)
		}
		r.hasFormat = true
	case "kind":
		v, err := s.str()
		if err != nil {
			return err
		}
		hd.kind, hd.seen["kind"] = v, line
		return checkName("kind", v, line)
	case "params":
		return r.params(line)
	case "n":
		n, err := s.count("n", 1, set.MaxNodes)
		hd.n, hd.seen["n"], r.hasN = n, line, true
		return err
	case "implicit":
		hd.seen["implicit"] = line
		raw, err := s.skip()
		if err != nil {
			return err
		}
		return hd.setImplicit(string(raw), line)
	case "k":
		k, err := s.count("k", 1, set.MaxNodes)
		hd.k = k
		return err
	case "labels":
		return r.labels(line)
	case "arbiters":
		r.hasArbiters = true
		return s.array(`"arbiters"`, r.arbiter)
	default:
		return errorf(line, "unknown field %q (coterie/1 files have format, kind, params, n, k, labels, quorums or threshold or arbiters, owners)", short(key))
	}
	return nil
}

// params reads "params": null or an object.
func (r *jsonReader) params(line int) error {
	if r.s.isNull() {
		return nil
	}
	raw, err := r.s.skip()
	if err != nil {
		return err
	}
	if raw[0] != '{' {
		return errorf(line, "params must be an object {...}")
	}
	r.hd.seen["params"] = line
	r.hd.params, err = decodeParams(raw, line)
	return err
}

// labels reads "labels": null or an array of names.
func (r *jsonReader) labels(line int) error {
	s, hd := r.s, r.hd
	hd.seen["labels"] = line
	if s.isNull() {
		return nil
	}
	hd.labels = []string{}
	return s.array(`"labels"`, func() error {
		v, err := s.str()
		if err != nil {
			return err
		}
		if err := checkName(fmt.Sprintf("label %d", len(hd.labels)+1), v, s.line); err != nil {
			return err
		}
		hd.labels = append(hd.labels, v)
		return nil
	})
}

// arbiter reads one level of "arbiters": h, and quorums or a threshold.
func (r *jsonReader) arbiter() error {
	s, hd := r.s, r.hd
	l := &level{}
	s.peek()
	start := s.line
	err := s.object("an arbiter level", func(key string, line int) error {
		if ok, err := s.levelField(l, r.b, key, line); ok {
			return err
		}
		if key == "h" {
			h, err := s.count("h", 1, set.MaxNodes)
			l.h = h
			return err
		}
		return errorf(line, "unknown field %q in an arbiter level (want h, quorums or threshold, owners)", short(key))
	})
	if err != nil {
		return err
	}
	if l.h == 0 {
		return errorf(start, "an arbiter level without \"h\"")
	}
	if first, dup := hd.hLines[l.h]; dup {
		return errorf(start, "level h = %d given twice (first on line %d)", l.h, first)
	}
	hd.hLines[l.h] = start
	if err := r.b.charge(levelBytes, start); err != nil {
		return err
	}
	if err := finishLevel(l, "level h = "+strconv.Itoa(l.h), start); err != nil {
		return err
	}
	l.hLine = start
	r.arbiters = append(r.arbiters, l)
	return nil
}

// finish checks what follows the object and what it must hold, and sets
// the header's levels.
func (r *jsonReader) finish() error {
	hd, top := r.hd, r.top
	if c := r.s.peek(); c != 0 {
		return errorf(r.s.line, "unexpected data after the end of the JSON object")
	}
	if !r.hasFormat {
		return errorf(1, "missing \"format\": %q", Tag)
	}
	if !r.hasN {
		return errorf(1, "missing \"n\", the number of nodes")
	}
	if hd.implicit {
		return nil // implicitJSON checks the rest
	}
	if !r.hasArbiters {
		if err := finishLevel(top, "the file", 1); err != nil {
			return err
		}
		hd.levels = []*level{top}
		return nil
	}
	if top.listed || top.threshold > 0 || len(top.owners) > 0 {
		return errorf(1, "a file has either \"arbiters\" or quorums/threshold/owners at the top, not both")
	}
	if len(r.arbiters) == 0 {
		return errorf(r.s.line, "\"arbiters\" is empty")
	}
	hd.hasLevels = true
	hd.levels = r.arbiters
	return nil
}
