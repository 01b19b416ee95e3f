package web

import (
	"bytes"
	"fmt"

	"github.com/coterie-dev/coterie/format"
)

// The memory an analysis takes, measured on uploads of 10,000 to 200,000
// quorums over 20 to 1,000 nodes (the parsed family, its copies, the
// drawing, the report's sections and the JSON answer): about 4 KB a
// quorum and 1 KB a membership (a node in a quorum), the larger figures
// rounded up.
const (
	bytesPerQuorum     = 4 << 10
	bytesPerMembership = 1 << 10
)

// uploadCost estimates, without parsing, how many quorums and memberships
// an uploaded file in format f holds: each number is a membership; each
// line holding a number is a quorum (text and .dat), each change of the
// first column is one (CSV), each '[' but the outermost one is one (JSON).
// It overestimates rather than under.
func uploadCost(data []byte, f format.Format) (quorums, members int64) {
	inNumber := false
	lineHasNumber := false
	comment := false
	var first, prevFirst []byte
	firstStart, field := -1, 0
	brackets := int64(0)
	for i, c := range data {
		digit := c >= '0' && c <= '9'
		if digit && !inNumber && !comment {
			members++
			lineHasNumber = true
		}
		inNumber = digit
		switch c {
		case '#':
			if f != format.JSON {
				comment = true
			}
		case '[':
			brackets++
		case ',':
			if field == 0 && firstStart >= 0 && first == nil {
				first = data[firstStart:i]
			}
			field++
		case '\n':
			if lineHasNumber {
				if f == format.CSV {
					if first == nil && firstStart >= 0 {
						first = data[firstStart:i]
					}
					if !bytes.Equal(first, prevFirst) {
						quorums++
					}
					prevFirst = first
				} else {
					quorums++
				}
			}
			lineHasNumber, comment, first, firstStart, field = false, false, nil, -1, 0
			continue
		}
		if firstStart < 0 {
			firstStart = i
		}
	}
	if lineHasNumber && f != format.CSV {
		quorums++
	}
	if f == format.JSON {
		quorums = max(brackets-1, 0)
	}
	return quorums, members
}

// checkCost refuses an upload whose analysis is estimated to take more
// than MaxMemory.
func (s *Server) checkCost(name string, data []byte, f format.Format) error {
	q, m := uploadCost(data, f)
	return s.checkMemory(name, q, m)
}

// checkMemory refuses a system of q quorums with m memberships in all
// when its analysis is estimated to take more than MaxMemory. It is
// asked again once a file is parsed or a construction built, with the
// true counts.
func (s *Server) checkMemory(name string, q, m int64) error {
	need := q*bytesPerQuorum + m*bytesPerMembership
	if need <= s.o.MaxMemory {
		return nil
	}
	return fmt.Errorf("%s: about %d quorums with %d nodes in all would take about %s to analyse, more than the explorer's limit of %s (use the command line)",
		name, q, m, megabytes(need), megabytes(s.o.MaxMemory))
}
