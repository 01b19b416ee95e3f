package format

import (
	"fmt"
	"testing"
)

// scanIDs reads each token as parseID does, in the same pass or not:
// plain ids of every length around the fast path's limit, leading zeros,
// signs, stray letters, ids below the base, and separators of every kind.
func TestScanIDsAsParseID(t *testing.T) {
	toks := []string{"0", "1", "9", "10", "007", "1234567", "12345678", "16777216", "16777217",
		"99999999999", "+3", "-0", "-4", "3x", "x3", "1.5", "٣", "00000001", "0000000"}
	for _, base := range []int{0, 1} {
		for _, tok := range toks {
			for _, line := range []string{tok, " " + tok + " ", "\t" + tok + ",", "2," + tok + "\v"} {
				var qb quorumBuilder
				err := scanIDs([]byte(line), 7, base, &qb)
				var want []int
				var wantErr error
				if line[0] == '2' {
					v, _ := parseID("2", 7, base)
					want = append(want, v)
				}
				v, e := parseID(tok, 7, base)
				if e != nil {
					wantErr = e
				} else if len(want) > 0 && want[0] == v {
					wantErr = fmt.Errorf("line 7: node %d appears twice in the same quorum", v+base)
				} else {
					want = append(want, v)
				}
				switch {
				case wantErr != nil:
					if err == nil || err.Error() != wantErr.Error() {
						t.Errorf("base %d %q: %v, want %v", base, line, err, wantErr)
					}
				case err != nil || fmt.Sprint(qb.ids) != fmt.Sprint(want):
					t.Errorf("base %d %q: %v %v, want %v", base, line, qb.ids, err, want)
				}
			}
		}
	}
}
