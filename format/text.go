package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// header collects the "# key: value" comments of text and CSV files, and
// the same fields of JSON files.
type header struct {
	budget     *budget
	hLines     map[int]int    // h -> line of its level
	seen       map[string]int // key -> line it was given on
	n, k       int
	kind       string
	params     set.Params
	labels     []string
	levels     []*level // text/CSV: in file order; h = 0 for a plain family
	hasLevels  bool     // an (h,k)-arbiter
	topQuorums bool     // quorums before any "# h:" line
	csv        bool     // labels carry the CSV writer's ' before formula-like text
	implicit   bool     // "implicit": true: the construction defines the quorums
	// room is what the first level reserves when it is made: about as
	// many quorums and node ids as the input holds (see [header.reserve]).
	room struct{ quorums, ids int }
}

// level is one family being read: the whole system, or one (h,k) level.
type level struct {
	h, hLine   int
	threshold  int
	thrLine    int
	listed     bool // JSON: "quorums" was given, even if empty
	qs         quorumList
	owners     []int32 // 0-based owner of each quorum, or set.NoOwner
	ownerLines []int32 // line of each owner
	owned      bool
}

func newHeader(b *budget) *header {
	return &header{budget: b, seen: map[string]int{}, hLines: map[int]int{}}
}

// levelBytes is what one level takes while it is read, for the budget.
const levelBytes = 512

// add appends the quorum qb holds, read at line, charging the budget.
func (l *level) add(b *budget, qb *quorumBuilder, line int) error {
	if len(qb.ids) == 0 {
		return errorf(line, "quorum %d is empty", l.qs.len()+1)
	}
	top := qb.top()
	if err := b.add(len(qb.ids), top, line); err != nil {
		return err
	}
	l.qs.add(qb.ids, top, line)
	return nil
}

// metaKeys are the header comments coterie reads; other comments are
// ignored.
var metaKeys = map[string]bool{
	"format": true, "kind": true, "params": true, "n": true, "k": true,
	"labels": true, "threshold": true, "h": true, "implicit": true,
}

// splitMeta recognises a comment "# key: value" with a known key.
func splitMeta(comment string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(comment, ":")
	if !ok {
		return "", "", false
	}
	key = strings.ToLower(strings.TrimSpace(key))
	if !metaKeys[key] {
		return "", "", false
	}
	return key, strings.TrimSpace(value), true
}

// current returns the level quorums and thresholds go to now.
func (hd *header) current() *level {
	if len(hd.levels) == 0 {
		l := &level{}
		if r := hd.room; r.quorums > 0 {
			l.qs.reserve(r.quorums, r.ids)
			l.owners = make([]int32, 0, r.quorums)
			l.ownerLines = make([]int32, 0, r.quorums)
		}
		hd.levels = append(hd.levels, l)
	}
	return hd.levels[len(hd.levels)-1]
}

// meta applies one header comment.
func (hd *header) meta(key, value string, line int) error {
	if key == "h" {
		h, err := parseCount("h", value, line, 1, set.MaxNodes)
		if err != nil {
			return err
		}
		if hd.topQuorums {
			return errorf(line, "a \"# h:\" level after quorums that belong to no level: in an (h,k)-arbiter every quorum follows its level's \"# h:\" line")
		}
		if first, dup := hd.hLines[h]; dup {
			return errorf(line, "level h = %d given twice (first on line %d)", h, first)
		}
		if err := hd.budget.charge(levelBytes, line); err != nil {
			return err
		}
		hd.hLines[h] = line
		if !hd.hasLevels {
			// Drop the empty implicit level a threshold may not yet use.
			if len(hd.levels) == 1 && hd.levels[0].threshold > 0 {
				return errorf(line, "a \"# h:\" level after a threshold for the whole system (line %d)", hd.levels[0].thrLine)
			}
			hd.levels = nil
		}
		hd.hasLevels = true
		hd.levels = append(hd.levels, &level{h: h, hLine: line})
		return nil
	}
	if key == "threshold" {
		l := hd.current()
		if l.threshold > 0 {
			return errorf(line, "threshold given twice for the same level (first on line %d)", l.thrLine)
		}
		if l.qs.len() > 0 {
			return errorf(line, "a threshold after quorums: a level is either listed or a threshold")
		}
		w, err := parseCount("threshold", value, line, 1, set.MaxNodes)
		if err != nil {
			return err
		}
		l.threshold, l.thrLine = w, line
		return nil
	}
	if first, dup := hd.seen[key]; dup {
		return errorf(line, "%s given twice (first on line %d)", key, first)
	}
	hd.seen[key] = line
	var err error
	switch key {
	case "format":
		if value != Tag {
			return errorf(line, "unknown format tag %q (this version reads %q)", short(value), Tag)
		}
	case "kind":
		hd.kind = value
		if strings.HasPrefix(value, `"`) {
			// A kind the writer had to quote (see headerValue).
			if err := json.Unmarshal([]byte(value), &hd.kind); err != nil {
				return errorf(line, "kind: a value that starts with a double quote must be a JSON string: %v", err)
			}
		}
		err = checkName("kind", hd.kind, line)
	case "params":
		hd.params, err = decodeParams([]byte(value), line)
	case "n":
		hd.n, err = parseCount("n", value, line, 1, set.MaxNodes)
	case "k":
		hd.k, err = parseCount("k", value, line, 1, set.MaxNodes)
	case "implicit":
		err = hd.setImplicit(value, line)
	case "labels":
		if err := json.Unmarshal([]byte(value), &hd.labels); err != nil {
			return errorf(line, "labels: want a JSON array of strings: %v", err)
		}
		if hd.labels == nil {
			hd.labels = []string{}
		}
		for i, l := range hd.labels {
			if hd.csv {
				l = uncsvLabel(l)
				hd.labels[i] = l
			}
			if err := checkName(fmt.Sprintf("label %d", i+1), l, line); err != nil {
				return err
			}
		}
	}
	return err
}

// reserve has the first level make room, when it is made, for at most
// quorums quorums of ids node ids in all, so that reading a long list
// does not copy its arrays as they grow; it reserves nothing when that
// room would not fit the memory budget.
func (hd *header) reserve(quorums, ids int) {
	if b := hd.budget; b.max > 0 && b.used+int64(quorums)*quorumCost(0)+4*int64(ids) > b.max {
		return
	}
	hd.room.quorums, hd.room.ids = quorums, ids
}

// quorum adds the quorum qb holds, with its 1-based owner (0 for none), to
// the current level.
func (hd *header) quorum(qb *quorumBuilder, owner, line, ownerLine int) error {
	if hd.hasLevels && len(hd.levels) == 0 {
		return errorf(line, "a quorum before the first \"# h:\" level")
	}
	if !hd.hasLevels {
		hd.topQuorums = true
	}
	l := hd.current()
	if l.threshold > 0 {
		return errorf(line, "a quorum in a threshold level (threshold on line %d): a level is either listed or a threshold", l.thrLine)
	}
	if err := l.add(hd.budget, qb, line); err != nil {
		return err
	}
	o := int32(set.NoOwner)
	if owner > 0 {
		o = int32(owner - 1)
		l.owned = true
	}
	l.owners = append(l.owners, o)
	l.ownerLines = append(l.ownerLines, int32(ownerLine))
	return nil
}

// system checks what was read against n and builds the system. lastLine is
// where errors about the file as a whole point.
func (hd *header) system(lastLine int) (set.System, error) {
	if hd.implicit {
		return hd.implicitSystem()
	}
	if len(hd.levels) == 0 {
		return set.System{}, errorf(0, "no quorums (and no threshold) in the file")
	}
	n := hd.n
	if n == 0 {
		for _, l := range hd.levels {
			for _, m := range l.qs.top {
				n = max(n, int(m)+1)
			}
			if l.threshold > 0 && hd.n == 0 {
				return set.System{}, errorf(l.thrLine, "a threshold needs n (add a header line \"# n: N\")")
			}
		}
	}
	k := hd.k
	if k == 0 {
		k = 1
	}
	if hd.labels != nil && len(hd.labels) != n {
		return set.System{}, errorf(hd.seen["labels"], "%d labels for %d nodes", len(hd.labels), n)
	}
	var fams []*set.Family
	for _, l := range hd.levels {
		f := &set.Family{N: n, K: k, H: l.h, Kind: hd.kind, Params: hd.params, Labels: hd.labels}
		if l.threshold > 0 {
			if l.threshold > n {
				return set.System{}, errorf(l.thrLine, "threshold %d exceeds n = %d", l.threshold, n)
			}
			f.Threshold = l.threshold
		} else {
			if l.qs.len() == 0 {
				line := l.hLine
				if line == 0 {
					line = lastLine
				}
				if l.h > 0 {
					return set.System{}, errorf(line, "level h = %d has no quorums", l.h)
				}
				return set.System{}, errorf(0, "no quorums (and no threshold) in the file")
			}
			for i, m := range l.qs.top {
				if int(m) >= n {
					return set.System{}, errorf(int(l.qs.line[i]), "node %d is beyond n = %d (line %d)", m+1, n, hd.seen["n"])
				}
				if o := l.owners[i]; int(o) >= n {
					return set.System{}, errorf(int(l.ownerLines[i]), "owner %d is beyond n = %d", o+1, n)
				}
			}
			sparse, err := hd.budget.sparse(&l.qs, !hd.hasLevels, lastLine)
			if err != nil {
				return set.System{}, err
			}
			if sparse {
				if f.Sparse, err = set.NewLists(l.qs.lists()); err != nil {
					return set.System{}, errorf(0, "%v", err)
				}
			} else {
				f.Quorums = l.qs.sets()
			}
			if l.owned {
				f.Owners = make([]int, len(l.owners))
				for i, o := range l.owners {
					f.Owners[i] = int(o)
				}
			}
		}
		if l.h > k {
			return set.System{}, errorf(l.hLine, "level h = %d exceeds k = %d", l.h, k)
		}
		fams = append(fams, f)
	}
	if !hd.hasLevels {
		return set.System{Family: fams[0]}, nil
	}
	// As set.HK.AddLevel does, in one sort rather than one per level.
	slices.SortFunc(fams, func(x, y *set.Family) int { return x.H - y.H })
	return set.System{HK: &set.HK{N: n, K: k, Kind: hd.kind, Params: hd.params, Labels: hd.labels, Levels: fams}}, nil
}

// lines calls fn for each line of data with its 1-based number, without the
// line break (and a trailing '\r'), and returns the number of the last one.
func lines(data []byte, fn func(line []byte, no int) error) (int, error) {
	no := 0
	for len(data) > 0 {
		no++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if k := len(line) - 1; k >= 0 && line[k] == '\r' {
			line = line[:k]
		}
		if err := fn(line, no); err != nil {
			return no, err
		}
	}
	return no, nil
}

// readText reads the text format: one quorum per line, node ids separated by
// spaces or commas, '#' comments, header comments "# key: value", and a
// trailing "# owner: i" on a quorum line.
func readText(data []byte, b *budget) (set.System, error) {
	hd := newHeader(b)
	var qb quorumBuilder
	last, err := lines(data, func(raw []byte, no int) error {
		content, comment, hasComment := strings.Cut(string(raw), "#")
		if strings.TrimSpace(content) == "" {
			if hasComment {
				if key, value, ok := splitMeta(comment); ok {
					return hd.meta(key, value, no)
				}
			}
			return nil
		}
		qb.reset()
		if err := scanIDs(content, no, 1, &qb); err != nil {
			return err
		}
		owner := 0
		if hasComment {
			if key, value, ok := strings.Cut(comment, ":"); ok && strings.TrimSpace(strings.ToLower(key)) == "owner" {
				v, err := parseOwner(strings.TrimSpace(value), no)
				if err != nil {
					return err
				}
				owner = v + 1
			}
		}
		return hd.quorum(&qb, owner, no, no)
	})
	if err != nil {
		return set.System{}, err
	}
	return hd.system(last)
}

// scanIDs adds the node ids of a quorum line, separated by white space or
// commas and numbered from base, to qb.
func scanIDs[T string | []byte](content T, no, base int, qb *quorumBuilder) error {
	sep := func(c byte) bool { return c == ' ' || c == '\t' || c == ',' || c == '\v' || c == '\f' }
	for i := 0; i < len(content); {
		c := content[i]
		if sep(c) {
			i++
			continue
		}
		// A plain id of up to 7 digits is read in the same pass; anything
		// else (and every error) by parseID.
		v, j := 0, i
		for j < len(content) && j-i < 8 {
			d := content[j] - '0'
			if d > 9 {
				break
			}
			v = v*10 + int(d)
			j++
		}
		if j > i && j-i <= 7 && (j == len(content) || sep(content[j])) && v >= base {
			v -= base
		} else {
			for j < len(content) && !sep(content[j]) {
				j++
			}
			var err error
			if v, err = parseID(content[i:j], no, base); err != nil {
				return err
			}
		}
		if err := qb.add(v, no, base); err != nil {
			return err
		}
		i = j
	}
	return nil
}
