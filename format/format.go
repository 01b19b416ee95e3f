// Package format reads and writes quorum systems in the four file formats of
// coterie's contract: canonical JSON, text (one quorum per line), CSV (one
// row per membership) and the hypergraph .dat format of the
// minimal-transversal tools.
//
// Readers take the whole input and return a [set.System] with 0-based nodes,
// or a [*SyntaxError] carrying the line of the first problem; writers are
// deterministic (the same system gives the same bytes) and stream, so a
// family of any size is written without building its text in memory.
//
// Text and CSV files carry what plain quorum lists cannot (n, k, kind,
// params, labels, thresholds, (h,k) levels) in header comments of the form
// "# key: value", which other tools skip as comments; owners go in a
// trailing "# owner: i" comment (text) or an owner column (CSV). The .dat
// format holds quorums only; see [Lossy].
//
// Nothing a writer emits holds a raw control character: strings are JSON
// with every control character escaped; a kind a header line cannot hold
// as it is (a line break, say) is written as a JSON string, and a header
// value starting with a double quote is read as one. In CSV files no
// header string holds a comma, and a label a spreadsheet could take for a
// formula (starting with = + - @, a tab or a carriage return) is written
// with a leading ', which reading removes (as it does one ' before a
// label starting with ').
package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// Format names a file format.
type Format string

// The four file formats (docs/formats.md describes them).
const (
	JSON Format = "json"
	Text Format = "text"
	CSV  Format = "csv"
	Dat  Format = "dat"
)

// Tag is the value of the "format" field of coterie's JSON files.
const Tag = "coterie/1"

// Formats returns the formats in the order help texts show them.
func Formats() []Format { return []Format{JSON, Text, CSV, Dat} }

// Parse returns the format called name: "json", "text" (or "txt", "q"),
// "csv" or "dat".
func Parse(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "json":
		return JSON, nil
	case "text", "txt", "q":
		return Text, nil
	case "csv":
		return CSV, nil
	case "dat":
		return Dat, nil
	}
	return "", fmt.Errorf("format: unknown format %q (want json, text, csv or dat)", name)
}

// Detect returns the format a file name's extension implies: .json, .txt or
// .q, .csv, .dat. ok is false for any other name, including "-".
func Detect(path string) (f Format, ok bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return JSON, true
	case ".txt", ".q":
		return Text, true
	case ".csv":
		return CSV, true
	case ".dat":
		return Dat, true
	}
	return "", false
}

// Sniff guesses the format of data that came without a telling name (such as
// standard input): JSON if it starts with '{', CSV if its first line that is
// not a comment is a quorum,node header, text otherwise.
func Sniff(data []byte) Format {
	rest := bytes.TrimPrefix(data, []byte(bom))
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if t[0] == '{' {
			return JSON
		}
		if _, err := parseCSVHeader(string(t)); err == nil {
			return CSV
		}
		return Text
	}
	return Text
}

// Options adjust reading and writing.
type Options struct {
	// Base is the number of the first node in a .dat file: 1 (the
	// default, also when zero-valued Options are used through
	// [DefaultOptions()]) or 0.
	Base int
	// Name is the input's name in errors ([SyntaxError.File]); "" leaves
	// errors as "line N: what".
	Name string
	// MaxMemory, if positive, bounds in bytes what reading may take: the
	// input itself (at most MaxMemory/[InputShare] bytes), its parsed
	// quorums, and the bit sets of the system returned. Reading past it
	// stops with a [*SyntaxError] at the line of the quorum that crossed
	// it, wrapping [set.ErrMemoryBudget]. 0 means no limit.
	MaxMemory int64
	// Implicit, if not nil, checks the kind and params of an implicit
	// family (one stored as "implicit": true, without quorums) and returns
	// the family they define, or an error that the reader reports at the
	// line of the params or the kind; construct.Implicit is the function
	// coterie's commands use. When nil, an implicit file is refused: a
	// caller that sets no checker is not ready for a family without
	// quorums.
	Implicit func(kind string, params set.Params) (*set.Family, error)
	// Sparse lets a reader hold the quorums of a coterie or k-arbiter as
	// node lists ([set.Family.Sparse]) when their bit sets would take far
	// more (wide node ids) or more than MaxMemory allows; the memory
	// budget then charges a quorum's bit set only once the form is
	// chosen. A caller that sets it handles sparse families.
	Sparse bool
}

// DefaultOptions() returns the options used when none are given: .dat nodes
// numbered from 1.
func DefaultOptions() Options { return Options{Base: 1} }

// Read parses a whole input in format f. Every problem in the input is a
// [*SyntaxError] with its line. The result passes [set.System.Validate]
// and has at least one quorum (or a threshold).
func Read(r io.Reader, f Format, opt Options) (set.System, error) {
	data, err := ReadInput(r, opt)
	if err != nil {
		return set.System{}, err
	}
	return ReadBytes(data, f, opt)
}

// ReadBytes is [Read] on data already in memory.
func ReadBytes(data []byte, f Format, opt Options) (set.System, error) {
	sys, err := readBytes(data, f, opt)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) && se.File == "" {
			se.File = opt.Name
		}
		return set.System{}, err
	}
	return sys, nil
}

func readBytes(data []byte, f Format, opt Options) (set.System, error) {
	if limit := opt.MaxMemory / InputShare; opt.MaxMemory > 0 && int64(len(data)) > max(limit, 1) {
		return set.System{}, inputTooLarge(opt, max(limit, 1), int64(len(data)))
	}
	data = bytes.TrimPrefix(data, []byte(bom))
	if err := checkBytes(data); err != nil {
		return set.System{}, err
	}
	b := newBudget(opt.MaxMemory, data)
	b.allowSparse = opt.Sparse
	b.implicit = opt.Implicit
	var sys set.System
	var err error
	switch f {
	case JSON:
		sys, err = readJSON(data, b)
	case Text:
		sys, err = readText(data, b)
	case CSV:
		sys, err = readCSV(data, b)
	case Dat:
		sys, err = readDat(data, opt, b)
	default:
		return set.System{}, fmt.Errorf("format: unknown format %q", f)
	}
	if err != nil {
		return set.System{}, err
	}
	if err := sys.Validate(); err != nil {
		// The readers check everything a file can get wrong with a line
		// number; this is the safety net for what remains.
		return set.System{}, &SyntaxError{Msg: err.Error()}
	}
	return sys, nil
}

// Write writes sys in format f. Writing a threshold family or an
// (h,k)-arbiter as .dat is an error: the format has no way to say it.
func Write(w io.Writer, sys set.System, f Format, opt Options) error {
	if err := sys.Validate(); err != nil {
		return fmt.Errorf("format: %w", err)
	}
	if sys.HK != nil {
		switch f {
		case JSON:
			return writeJSONHK(w, sys.HK)
		case Text:
			return writeTextHK(w, sys.HK)
		case CSV:
			return writeCSVHK(w, sys.HK)
		case Dat:
			return errors.New("format: the .dat format holds one list of quorums; write an (h,k)-arbiter as JSON, text or CSV, or one level at a time")
		}
		return fmt.Errorf("format: unknown format %q", f)
	}
	fam := sys.Family
	sw, err := NewWriter(w, f, fam, opt)
	if err != nil {
		return err
	}
	if fam.IsSparse() {
		for i := range fam.Sparse.Len() {
			if err := sw.QuorumList(fam.Sparse.At(i), fam.Owner(i)); err != nil {
				return err
			}
		}
		return sw.Close()
	}
	for i := range fam.Quorums {
		if err := sw.Quorum(&fam.Quorums[i], fam.Owner(i)); err != nil {
			return err
		}
	}
	return sw.Close()
}

// Lossy lists what writing sys in format f leaves out, in words for a
// warning ("labels", "owners", ...); nil if nothing is lost.
func Lossy(sys set.System, f Format) []string {
	if f != Dat {
		return nil
	}
	var lost []string
	fams := sys.Families()
	hasOwners, hasLabels := false, sys.Labels() != nil
	for _, fam := range fams {
		if fam.Owners != nil {
			hasOwners = true
		}
	}
	if hasLabels {
		lost = append(lost, "labels")
	}
	if hasOwners {
		lost = append(lost, "owners")
	}
	if sys.K() != 1 {
		lost = append(lost, fmt.Sprintf("k = %d", sys.K()))
	}
	if sys.Kind() != "" {
		lost = append(lost, "kind and params")
	}
	// n survives only if the largest node is in some quorum.
	if fam := sys.Family; fam != nil && !fam.IsThreshold() {
		top := -1
		if fam.IsSparse() {
			top = fam.Sparse.Max()
		}
		for i := range fam.Quorums {
			if m, ok := fam.Quorums[i].Max(); ok && m > top {
				top = m
			}
		}
		if top+1 < fam.N {
			lost = append(lost, fmt.Sprintf("n = %d (nodes %d..%d are in no quorum)", fam.N, top+2, fam.N))
		}
	}
	return lost
}
