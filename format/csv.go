package format

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// csvColumns are the positions of the CSV columns (-1 if absent).
type csvColumns struct {
	h, quorum, node, owner, count int
}

// parseCSVHeader reads a header line such as "quorum,node" or
// "h,quorum,node,owner" (any order, any case).
func parseCSVHeader(line string) (csvColumns, error) {
	c := csvColumns{h: -1, quorum: -1, node: -1, owner: -1}
	fields := strings.Split(line, ",")
	c.count = len(fields)
	for i, f := range fields {
		name := strings.ToLower(strings.Trim(strings.TrimSpace(f), `"`))
		var p *int
		switch name {
		case "h":
			p = &c.h
		case "quorum":
			p = &c.quorum
		case "node":
			p = &c.node
		case "owner":
			p = &c.owner
		default:
			return c, fmt.Errorf("unknown column %q (the columns are quorum, node and optionally h, owner)", short(name))
		}
		if *p >= 0 {
			return c, fmt.Errorf("column %q twice", name)
		}
		*p = i
	}
	if c.quorum < 0 || c.node < 0 {
		return c, fmt.Errorf("the header needs columns quorum and node, got %q", short(line))
	}
	return c, nil
}

// csvRows are the membership rows of a CSV file, compactly (four int32s a
// row), grouped into quorums once the whole file is read.
type csvRows struct {
	h, quorum, node, line, owner []int32 // owner 1-based, 0 if none
}

func (r *csvRows) add(h, quorum, node, line, owner int) {
	r.h = append(r.h, int32(h))
	r.quorum = append(r.quorum, int32(quorum))
	r.node = append(r.node, int32(node))
	r.line = append(r.line, int32(line))
	r.owner = append(r.owner, int32(owner))
}

// rowCost is what reading one CSV row takes.
const rowCost = 5 * 4 * 2 // five int32s, slices grown by doubling

// readCSV reads the CSV format: header comments, a header row, then one row
// per membership.
func readCSV(data []byte, b *budget) (set.System, error) {
	r := &csvReader{hd: newHeader(b), b: b}
	r.hd.csv = true
	last, err := lines(data, r.line)
	if err != nil {
		return set.System{}, err
	}
	if err := r.checkLevels(); err != nil {
		return set.System{}, err
	}
	if err := r.build(last); err != nil {
		return set.System{}, err
	}
	return r.hd.system(last)
}

// csvReader is the state of readCSV: the header comments and columns read
// so far, and the rows.
type csvReader struct {
	hd         *header
	b          *budget
	cols       csvColumns
	haveHeader bool
	rows       csvRows
	fields     [4]string // a valid header has at most 4 columns
}

// line reads one line of the file: a comment, the column header or a row.
func (r *csvReader) line(raw []byte, no int) error {
	line := strings.TrimSpace(string(raw))
	if line == "" {
		return nil
	}
	if line[0] == '#' {
		if key, value, ok := splitMeta(line[1:]); ok {
			if r.haveHeader && key != "h" && key != "threshold" {
				return errorf(no, "header comment %q after the column header", key)
			}
			return r.hd.meta(key, value, no)
		}
		return nil
	}
	if !r.haveHeader {
		c, err := parseCSVHeader(line)
		if err != nil {
			return errorf(no, "%v", err)
		}
		r.cols, r.haveHeader = c, true
		return nil
	}
	return r.row(line, no)
}

// splitFields splits line at commas into fields (as many as fit) and
// returns the number of fields.
func splitFields(line string, fields []string) int {
	nf := 0
	for rest := line; ; nf++ {
		cell, tail, more := strings.Cut(rest, ",")
		if nf < len(fields) {
			fields[nf] = cell
		}
		if !more {
			return nf + 1
		}
		rest = tail
	}
}

// row reads a membership row: (h,) quorum, node (, owner).
func (r *csvReader) row(line string, no int) error {
	if nf := splitFields(line, r.fields[:]); nf != r.cols.count {
		return errorf(no, "%d fields, the header has %d", nf, r.cols.count)
	}
	field := func(i int) string { return strings.Trim(strings.TrimSpace(r.fields[i]), `"`) }
	h := 0
	if r.cols.h >= 0 {
		var err error
		if h, err = parseCount("h", field(r.cols.h), no, 1, set.MaxNodes); err != nil {
			return err
		}
	}
	qn, err := parseCount("quorum", field(r.cols.quorum), no, 1, math.MaxInt32)
	if err != nil {
		return err
	}
	v, err := parseID(field(r.cols.node), no, 1)
	if err != nil {
		return err
	}
	owner := 0
	if r.cols.owner >= 0 {
		if o := field(r.cols.owner); o != "" {
			ov, err := parseOwner(o, no)
			if err != nil {
				return err
			}
			owner = ov + 1
		}
	}
	if err := r.b.charge(rowCost, no); err != nil {
		return err
	}
	r.rows.add(h, qn, v, no, owner)
	return nil
}

// checkLevels checks that the file has a column header and that its
// levels agree with the h column.
func (r *csvReader) checkLevels() error {
	hd := r.hd
	if !r.haveHeader && len(hd.levels) == 0 {
		return errorf(0, "no quorums: the file has no column header (quorum,node)")
	}
	if r.cols.h >= 0 && !hd.hasLevels && len(hd.levels) > 0 {
		return errorf(hd.levels[0].thrLine, "a threshold for the whole system in a CSV with an h column: put \"# h: H\" before it")
	}
	if r.cols.h < 0 && hd.hasLevels {
		return errorf(hd.levels[0].hLine, "\"# h:\" levels need an h column in the header")
	}
	return nil
}

// build groups the rows into quorums and levels: by level in increasing h
// after the header's threshold levels, and by quorum number; within a
// quorum the nodes keep their order in the file. last is the file's last
// line.
func (r *csvReader) build(last int) error {
	rows := &r.rows
	order := make([]int32, len(rows.h))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := cmp.Compare(rows.h[a], rows.h[b]); c != 0 {
			return c
		}
		return cmp.Compare(rows.quorum[a], rows.quorum[b])
	})
	var qb quorumBuilder
	for i := 0; i < len(order); {
		h := rows.h[order[i]]
		if h > 0 {
			if err := r.addLevel(int(h), int(rows.line[order[i]])); err != nil {
				return err
			}
		}
		for want := int32(1); i < len(order) && rows.h[order[i]] == h; want++ {
			if qn := rows.quorum[order[i]]; qn != want {
				return errorf(last, "quorum %d%s has no rows (quorum numbers run from 1 without gaps)", want, levelName(int(h)))
			}
			var err error
			if i, err = r.quorum(order, i, &qb); err != nil {
				return err
			}
		}
	}
	return nil
}

// addLevel starts level h, first listed in rows on line.
func (r *csvReader) addLevel(h, line int) error {
	hd := r.hd
	if at, dup := hd.hLines[h]; dup {
		return errorf(at, "level h = %d is both a threshold and listed in rows", h)
	}
	hd.hLines[h] = line
	if err := r.b.charge(levelBytes, line); err != nil {
		return err
	}
	hd.hasLevels = true
	hd.levels = append(hd.levels, &level{h: h})
	return nil
}

// quorum adds the quorum whose rows start at order[i], and returns the
// index of the next quorum's first row.
func (r *csvReader) quorum(order []int32, i int, qb *quorumBuilder) (int, error) {
	rows, hd := &r.rows, r.hd
	first := order[i]
	h, qn := rows.h[first], rows.quorum[first]
	qb.reset()
	owner, ownerLine := int32(0), int32(0)
	for ; i < len(order) && rows.h[order[i]] == h && rows.quorum[order[i]] == qn; i++ {
		k := order[i]
		line := int(rows.line[k])
		if hd.n > 0 && int(rows.node[k]) >= hd.n {
			return i, errorf(line, "node %d is beyond n = %d (line %d)", rows.node[k]+1, hd.n, hd.seen["n"])
		}
		if err := qb.add(int(rows.node[k]), line, 1); err != nil {
			return i, errorf(line, "node %d appears twice in quorum %d%s", rows.node[k]+1, qn, levelName(int(h)))
		}
		if o := rows.owner[k]; o != 0 {
			if owner != 0 && owner != o {
				return i, errorf(line, "quorum %d has owner %d here and %d on line %d", qn, o, owner, ownerLine)
			}
			owner, ownerLine = o, rows.line[k]
		}
	}
	return i, hd.quorum(qb, int(owner), int(rows.line[first]), int(ownerLine))
}

func levelName(h int) string {
	if h == 0 {
		return ""
	}
	return " of level h = " + strconv.Itoa(h)
}
