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
	hd := newHeader(b)
	hd.csv = true
	var cols csvColumns
	haveHeader := false
	var rows csvRows
	var fields [4]string // a valid header has at most 4 columns
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
		qn, err := parseCount("quorum", field(cols.quorum), no, 1, math.MaxInt32)
		if err != nil {
			return err
		}
		v, err := parseID(field(cols.node), no, 1)
		if err != nil {
			return err
		}
		owner := 0
		if cols.owner >= 0 {
			if o := field(cols.owner); o != "" {
				ov, err := parseID(o, no, 1)
				if err != nil {
					return errorf(no, "owner: %s", err.(*SyntaxError).Msg)
				}
				owner = ov + 1
			}
		}
		if err := b.charge(rowCost, no); err != nil {
			return err
		}
		rows.add(h, qn, v, no, owner)
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
	// threshold levels, and by quorum number; within a quorum they keep
	// their order in the file.
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
			if line, dup := hd.hLines[int(h)]; dup {
				return set.System{}, errorf(line, "level h = %d is both a threshold and listed in rows", h)
			}
			hd.hLines[int(h)] = int(rows.line[order[i]])
			if err := b.charge(levelBytes, int(rows.line[order[i]])); err != nil {
				return set.System{}, err
			}
			hd.hasLevels = true
			hd.levels = append(hd.levels, &level{h: int(h)})
		}
		want := int32(1)
		for ; i < len(order) && rows.h[order[i]] == h; want++ {
			first := order[i]
			qn := rows.quorum[first]
			if qn != want {
				return set.System{}, errorf(last, "quorum %d%s has no rows (quorum numbers run from 1 without gaps)", want, levelName(int(h)))
			}
			qb.reset()
			owner, ownerLine := int32(0), int32(0)
			for ; i < len(order) && rows.h[order[i]] == h && rows.quorum[order[i]] == qn; i++ {
				r := order[i]
				if hd.n > 0 && int(rows.node[r]) >= hd.n {
					return set.System{}, errorf(int(rows.line[r]), "node %d is beyond n = %d (line %d)", rows.node[r]+1, hd.n, hd.seen["n"])
				}
				if err := qb.add(int(rows.node[r]), int(rows.line[r]), 1); err != nil {
					return set.System{}, errorf(int(rows.line[r]), "node %d appears twice in quorum %d%s", rows.node[r]+1, qn, levelName(int(h)))
				}
				if o := rows.owner[r]; o != 0 {
					if owner != 0 && owner != o {
						return set.System{}, errorf(int(rows.line[r]), "quorum %d has owner %d here and %d on line %d", qn, o, owner, ownerLine)
					}
					owner, ownerLine = o, rows.line[r]
				}
			}
			if err := hd.quorum(&qb, int(owner), int(rows.line[first]), int(ownerLine)); err != nil {
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
