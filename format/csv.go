package format

import (
	"fmt"
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
			return c, fmt.Errorf("unknown column %q (the columns are quorum, node and optionally h, owner)", name)
		}
		if *p >= 0 {
			return c, fmt.Errorf("column %q twice", name)
		}
		*p = i
	}
	if c.quorum < 0 || c.node < 0 {
		return c, fmt.Errorf("the header needs columns quorum and node, got %q", line)
	}
	return c, nil
}

// csvQuorum gathers the rows of one quorum.
type csvQuorum struct {
	s         set.Set
	owner     int // 1-based, 0 if none
	line      int // first row
	ownerLine int
}

// readCSV reads the CSV format: header comments, a header row, then one row
// per membership.
func readCSV(data []byte) (set.System, error) {
	hd := newHeader()
	hd.csv = true
	var cols csvColumns
	haveHeader := false
	rows := 0
	byLevel := map[int][]*csvQuorum{} // h (0 for a plain family) -> quorums by number
	var levelOrder []int
	var fields [4]string
	curH, curQs := -1, []*csvQuorum(nil) // a valid header has at most 4 columns
	last, err := lines(data, func(raw []byte, no int) error {
		line := strings.TrimSpace(string(raw))
		if line == "" {
			return nil
		}
		if line[0] == '#' {
			if key, value, ok := splitMeta(line[1:]); ok {
				if haveHeader && key != "h" && key != "threshold" {
					return errorf(no, "header comment %q after the column header", key)
				}
				return hd.meta(key, value, no)
			}
			return nil
		}
		if !haveHeader {
			c, err := parseCSVHeader(line)
			if err != nil {
				return errorf(no, "%v", err)
			}
			cols, haveHeader = c, true
			return nil
		}
		rows++
		nf := 0
		for rest := line; ; nf++ {
			cell, tail, more := strings.Cut(rest, ",")
			if nf < len(fields) {
				fields[nf] = cell
			}
			if !more {
				nf++
				break
			}
			rest = tail
		}
		if nf != cols.count {
			return errorf(no, "%d fields, the header has %d", nf, cols.count)
		}
		field := func(i int) string { return strings.Trim(strings.TrimSpace(fields[i]), `"`) }
		h := 0
		if cols.h >= 0 {
			var err error
			if h, err = parseCount("h", field(cols.h), no, 1, set.MaxNodes); err != nil {
				return err
			}
		}
		qn, err := parseCount("quorum", field(cols.quorum), no, 1, set.MaxNodes)
		if err != nil {
			return err
		}
		v, err := parseID(field(cols.node), no, 1)
		if err != nil {
			return err
		}
		if h != curH || curQs == nil {
			if _, ok := byLevel[h]; !ok {
				levelOrder = append(levelOrder, h)
				byLevel[h] = nil
			}
			curH = h
		}
		qs := byLevel[h]
		// Quorum numbers run 1..m with at least one row each, so a number
		// beyond the rows read so far plus the rest of the file is wrong;
		// grow the table as rows arrive instead of trusting the number.
		if qn > len(qs) {
			if qn > rows+len(data)/4+1 {
				return errorf(no, "quorum number %d is larger than the file can hold", qn)
			}
			qs = append(qs, make([]*csvQuorum, qn-len(qs))...)
		}
		q := qs[qn-1]
		if q == nil {
			q = &csvQuorum{line: no}
			q.s.Grow(hd.n) // when the header gave n, one allocation per quorum
			qs[qn-1] = q
		}
		byLevel[h] = qs
		curQs = qs
		if q.s.Has(v) {
			return errorf(no, "node %d appears twice in quorum %d%s", v+1, qn, levelName(h))
		}
		q.s.Add(v)
		if cols.owner >= 0 {
			if o := field(cols.owner); o != "" {
				ov, err := parseID(o, no, 1)
				if err != nil {
					return errorf(no, "owner: %s", err.(*Error).Msg)
				}
				if q.owner != 0 && q.owner != ov+1 {
					return errorf(no, "quorum %d has owner %d here and %d on line %d", qn, ov+1, q.owner, q.ownerLine)
				}
				q.owner, q.ownerLine = ov+1, no
			}
		}
		return nil
	})
	if err != nil {
		return set.System{}, err
	}
	if !haveHeader {
		if len(hd.levels) == 0 {
			return set.System{}, errorf(0, "no quorums: the file has no column header (quorum,node)")
		}
	}
	if cols.h >= 0 && !hd.hasLevels && len(hd.levels) > 0 {
		return set.System{}, errorf(hd.levels[0].thrLine, "a threshold for the whole system in a CSV with an h column: put \"# h: H\" before it")
	}
	if cols.h < 0 && hd.hasLevels {
		return set.System{}, errorf(hd.levels[0].hLine, "\"# h:\" levels need an h column in the header")
	}
	// Rows are grouped by level in increasing h after the header's
	// threshold levels; quorums in number order.
	slices.Sort(levelOrder)
	for _, h := range levelOrder {
		if h > 0 {
			for _, l := range hd.levels {
				if l.h == h {
					return set.System{}, errorf(l.hLine, "level h = %d is both a threshold and listed in rows", h)
				}
			}
			hd.hasLevels = true
			hd.levels = append(hd.levels, &level{h: h})
		}
		for i, q := range byLevel[h] {
			if q == nil {
				return set.System{}, errorf(last, "quorum %d%s has no rows (quorum numbers run from 1 without gaps)", i+1, levelName(h))
			}
			if err := hd.quorum(&q.s, q.owner, q.line, q.ownerLine); err != nil {
				return set.System{}, err
			}
		}
	}
	return hd.system(last)
}

func levelName(h int) string {
	if h == 0 {
		return ""
	}
	return " of level h = " + strconv.Itoa(h)
}
