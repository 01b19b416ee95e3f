package domain

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// LineError is a problem on one line of a domains file.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func lineErrorf(line int, format string, args ...any) *LineError {
	return &LineError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// ParseP reads a probability exactly ("0.999" is 999/1000, "1/3" a
// third); it must lie in [0, 1].
func ParseP(s string) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("p %q is not a number", s)
	}
	if x.Sign() < 0 || x.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fmt.Errorf("p %q is not in [0, 1]", s)
	}
	return x, nil
}

// ReadCSV reads a domains file into t: CSV with the header "domain,p"
// (in either order), then one row per domain giving the probability that
// it is up; "#" starts a comment. Every domain named must already be in
// t (a node's domain or above one), and named once. Errors are
// *[LineError].
func ReadCSV(data []byte, t *Tree) error {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return lineErrorf(1, "the domains file is empty (want a header: domain,p)")
	}
	if err != nil {
		return csvError(err)
	}
	hline, _ := r.FieldPos(0)
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if h != "domain" && h != "p" {
			return lineErrorf(hline, "unknown column %q (want domain, p)", h)
		}
		if _, dup := col[h]; dup {
			return lineErrorf(hline, "column %q given twice", h)
		}
		col[h] = i
	}
	if len(col) != 2 {
		return lineErrorf(hline, "the header must name the columns domain and p")
	}
	seen := map[int]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(header) {
			return lineErrorf(line, "%d cells, the header has %d", len(rec), len(header))
		}
		path := strings.TrimSpace(rec[col["domain"]])
		if _, err := ParsePath(path); err != nil {
			return lineErrorf(line, "%v", err)
		}
		d, ok := t.Lookup(path)
		if !ok {
			return lineErrorf(line, "domain %q is no node's domain nor above one", path)
		}
		if prev, dup := seen[d]; dup {
			return lineErrorf(line, "domain %q already given on line %d", path, prev)
		}
		seen[d] = line
		p, err := ParseP(rec[col["p"]])
		if err != nil {
			return lineErrorf(line, "domain %q: %v", path, err)
		}
		if err := t.SetP(d, p); err != nil {
			return lineErrorf(line, "%v", err)
		}
	}
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return lineErrorf(pe.Line, "%v", pe.Err)
	}
	return lineErrorf(1, "%v", err)
}

// WriteCSV writes the probabilities of the domains that have one as a
// domains file, in order of their paths; ReadCSV reads it back.
func WriteCSV(w io.Writer, t *Tree) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"domain", "p"}); err != nil {
		return err
	}
	for _, d := range t.sorted() {
		if t.p[d] != nil {
			if err := cw.Write([]string{t.paths[d], RatString(t.p[d])}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// sorted returns the domains in order of their paths.
func (t *Tree) sorted() []int {
	out := make([]int, len(t.paths))
	for i := range out {
		out[i] = i
	}
	sortByPath(t, out)
	return out
}

// RatString writes a probability as a terminating decimal when it is one
// ("0.999"), else as a fraction ("1/3"); [ParseP] reads both back to the
// same number.
func RatString(x *big.Rat) string {
	if x.IsInt() {
		return x.Num().String()
	}
	// A denominator of the form 2^a·5^b terminates.
	d := new(big.Int).Set(x.Denom())
	digits := 0
	for _, f := range []int64{2, 5} {
		bf := big.NewInt(f)
		var m big.Int
		for {
			q, r := new(big.Int).QuoRem(d, bf, &m)
			if r.Sign() != 0 {
				break
			}
			d = q
			digits++
		}
	}
	if d.Cmp(big.NewInt(1)) == 0 {
		s := x.FloatString(digits)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s
	}
	return x.String()
}
