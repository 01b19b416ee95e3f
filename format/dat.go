package format

import (
	"bytes"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// readDat reads the hypergraph format of the minimal-transversal tools: one
// quorum per line, node ids separated by white space, numbered from
// opt.Base. Blank lines and '#' comments are skipped. n is the largest node.
func readDat(data []byte, opt Options, b *budget) (set.System, error) {
	base := opt.Base
	if base != 0 && base != 1 {
		return set.System{}, errorf(0, "the first node id (Options.Base) must be 0 or 1, not %d", base)
	}
	hd := newHeader(b)
	// At most a quorum a line. The node ids are not reserved: a dense
	// quorum is kept as bits, in fewer words than the file has ids, and
	// reserving an id every two bytes doubled the peak on 10^6 quorums.
	hd.reserve(bytes.Count(data, []byte{'\n'})+1, 0)
	var qb quorumBuilder
	last, err := lines(data, func(raw []byte, no int) error {
		qb.reset()
		ok, err := scanDatLine(raw, no, base, &qb)
		if err != nil {
			return err
		}
		if !ok {
			// Anything but plain ids: the general reading, which says
			// what is wrong.
			qb.reset()
			content, _, _ := strings.Cut(string(raw), "#")
			if strings.TrimSpace(content) == "" {
				return nil
			}
			if err := scanIDs(content, no, base, &qb); err != nil {
				return err
			}
		} else if len(qb.ids) == 0 {
			return nil // blank, or a comment
		}
		return hd.quorum(&qb, 0, no, no)
	})
	if err != nil {
		return set.System{}, err
	}
	return hd.system(last)
}

// scanDatLine adds to qb the node ids of a line made of ASCII digits and
// the separators of [scanIDs] (space, tab, comma, vertical tab, form feed)
// up to an optional '#' comment, as scanIDs would, without making a
// string of it. It returns false, having added some ids or none, on
// anything else (a sign, a letter, other white space, an id out of range,
// commas without ids, which make an empty quorum): such a line goes to
// scanIDs. An id given twice is the error scanIDs gives.
func scanDatLine(raw []byte, no, base int, qb *quorumBuilder) (bool, error) {
	comma := false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == '\v' || c == '\f':
			comma = comma || c == ','
			i++
			continue
		case c == '#':
			return !comma || len(qb.ids) > 0, nil
		case c < '0' || c > '9':
			return false, nil
		}
		v, j := 0, i
		for ; j < len(raw) && raw[j] >= '0' && raw[j] <= '9'; j++ {
			if j-i >= 9 {
				return false, nil // far too large: scanIDs says so
			}
			v = v*10 + int(raw[j]-'0')
		}
		if j < len(raw) {
			if c := raw[j]; !(c == ' ' || c == '\t' || c == ',' || c == '\v' || c == '\f' || c == '#') {
				return false, nil
			}
		}
		if v < base || v-base >= set.MaxNodes {
			return false, nil
		}
		if err := qb.add(v-base, no, base); err != nil {
			return false, err
		}
		i = j
	}
	return !comma || len(qb.ids) > 0, nil
}
