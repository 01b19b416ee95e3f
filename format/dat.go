package format

import (
	"bytes"

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
	var qb quorumBuilder
	last, err := lines(data, func(raw []byte, no int) error {
		content, _, _ := bytes.Cut(raw, []byte{'#'})
		if len(bytes.TrimSpace(content)) == 0 {
			return nil
		}
		qb.reset()
		if err := scanIDs(content, no, base, &qb); err != nil {
			return err
		}
		return hd.quorum(&qb, 0, no, no)
	})
	if err != nil {
		return set.System{}, err
	}
	return hd.system(last)
}
