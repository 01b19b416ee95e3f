package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/coterie-dev/coterie/set"
)

// SyntaxError is a problem in an input, at a line (1-based; 0 if the
// problem belongs to the input as a whole). Every reader returns one for
// every problem in what it reads; one that stopped at a memory budget
// wraps [set.ErrMemoryBudget].
type SyntaxError struct {
	File string // the input's name, from [Options.Name]; may be ""
	Line int
	Msg  string
	err  error
}

// Error returns "FILE:LINE: what", leaving out what is unknown. A file
// name that holds control characters or bytes that are not UTF-8 is
// quoted, so that the message is one line of plain text.
func (e *SyntaxError) Error() string {
	file := e.File
	for _, r := range file {
		if unicode.IsControl(r) || r == utf8.RuneError {
			file = strconv.Quote(file)
			break
		}
	}
	switch {
	case file != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", file, e.Line, e.Msg)
	case file != "":
		return file + ": " + e.Msg
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Unwrap returns the condition the error stands for, such as
// [set.ErrMemoryBudget], or nil.
func (e *SyntaxError) Unwrap() error { return e.err }

// ErrBelowBase is wrapped by the [*SyntaxError] of a node id below the first
// one, [Options.Base] in a .dat file and 1 elsewhere: a 0-based file read as
// 1-based, most often.
var ErrBelowBase = errors.New("format: node id below the first node id")

// Error is the former name of [SyntaxError].
//
// Deprecated: use SyntaxError.
type Error = SyntaxError

func errorf(line int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// InputShare is the part of [Options.MaxMemory] that the input's bytes may
// take: an input is at most MaxMemory/InputShare bytes long, leaving the
// rest for what is built from it.
const InputShare = 4

// bom is the UTF-8 byte order mark some editors put at the start of a
// file; readers skip it.
const bom = "\xef\xbb\xbf"

// ReadInput reads all of r as [Read] does before parsing: at most
// opt.MaxMemory/[InputShare] bytes (no limit when MaxMemory is 0), stopping
// at the first NUL byte, so that an endless or binary stream (/dev/zero)
// ends with a [*SyntaxError] rather than exhausting memory.
func ReadInput(r io.Reader, opt Options) ([]byte, error) {
	limit := int64(-1)
	if opt.MaxMemory > 0 {
		limit = max(opt.MaxMemory/InputShare, 1)
	}
	// A regular file is read into one buffer of its size; anything else
	// into chunks that double up to maxChunk, joined at the end, so that
	// memory stays within twice the input and an input over the limit
	// is dropped having taken no more than the limit.
	const maxChunk = 16 << 20
	size := 64 << 10
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			if limit >= 0 && fi.Size() > limit {
				return nil, inputTooLarge(opt, limit, fi.Size())
			}
			size = int(fi.Size()) + 1
		}
	}
	var chunks [][]byte
	total, lines := int64(0), 1
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			chunks = append(chunks, buf)
			buf = make([]byte, 0, min(2*cap(buf), maxChunk))
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		if k > 0 {
			got := buf[len(buf) : len(buf)+k]
			if i := bytes.IndexByte(got, 0); i >= 0 {
				line := lines + bytes.Count(got[:i], []byte{'\n'})
				return nil, &SyntaxError{File: opt.Name, Line: line, Msg: "a NUL byte: this is not a text file"}
			}
			lines += bytes.Count(got, []byte{'\n'})
			buf = buf[:len(buf)+k]
			total += int64(k)
			if limit >= 0 && total > limit {
				return nil, inputTooLarge(opt, limit, -1)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(chunks) == 0 {
		return buf, nil
	}
	data := make([]byte, 0, total)
	for _, c := range chunks {
		data = append(data, c...)
	}
	return append(data, buf...), nil
}

func inputTooLarge(opt Options, limit, size int64) error {
	what := "more than " + ByteSize(limit)
	if size >= 0 {
		what = ByteSize(size)
	}
	return &SyntaxError{File: opt.Name, err: set.ErrMemoryBudget,
		Msg: fmt.Sprintf("the input is %s, over the limit of %s (1/%d of the memory budget of %s)",
			what, ByteSize(limit), InputShare, ByteSize(opt.MaxMemory))}
}

// ByteSize writes a number of bytes for people: "512 B", "1.5 KiB",
// "12 MiB", "4 GiB".
func ByteSize(b int64) string {
	const unit = 1024
	if b < unit {
		return strconv.FormatInt(b, 10) + " B"
	}
	v, i := float64(b), -1
	for v >= unit && i < 5 {
		v /= unit
		i++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if v >= 100 || v == float64(int64(v)) {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}[i]
}

// checkBytes rejects what no coterie file holds, at its line: NUL and
// other control characters (tab, line feed, carriage return, vertical tab
// and form feed are white space), and bytes that are not UTF-8.
func checkBytes(data []byte) error {
	// Most files are plain ASCII text: one look-up a byte, and the
	// careful pass below only from the first byte that is not.
	i := 0
	for i < len(data) && plainByte[data[i]] {
		i++
	}
	if i == len(data) {
		return nil
	}
	line := 1 + bytes.Count(data[:i], []byte{'\n'})
	for i < len(data) {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
			case c == 0:
				return errorf(line, "a NUL byte: this is not a text file")
			case c < ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f', c == 0x7f:
				return errorf(line, "control character %s (coterie files are text)", strconv.QuoteRune(rune(c)))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return errorf(line, "byte 0x%02x is not UTF-8 (coterie files are UTF-8 text)", c)
		}
		if unicode.IsControl(r) {
			return errorf(line, "control character %s (coterie files are text)", strconv.QuoteRune(r))
		}
		i += size
	}
	return nil
}

// plainByte holds the bytes checkBytes lets through at a glance: printable
// ASCII and the white space of text.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range "\t\n\r\v\f" {
		t[c] = true
	}
	return t
}()

// maxName is the longest label or kind, in bytes.
const maxName = 4096

// checkName refuses a label, kind or parameter name or value that would be
// unsafe to print or to write back: control characters (C0, DEL, C1: a
// line break in a kind would change what a text file says, an escape
// sequence what a terminal shows), or more than maxName bytes.
func checkName(what, v string, line int) error {
	if len(v) > maxName {
		return errorf(line, "%s is %d bytes long; at most %d", what, len(v), maxName)
	}
	if !utf8.ValidString(v) {
		return errorf(line, "%s %q is not UTF-8", what, short(v))
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return errorf(line, "%s %q holds the control character %s", what, short(v), strconv.QuoteRune(r))
		}
	}
	return nil
}

// checkParams applies checkName to the keys and string values of params.
func checkParams(p set.Params, line int) error {
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case string:
			return checkName("a params value", x, line)
		case map[string]any:
			for k, e := range x {
				if err := checkName("a params key", k, line); err != nil {
					return err
				}
				if err := walk(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for k, v := range p {
		if err := checkName("a params key", k, line); err != nil {
			return err
		}
		if err := walk(v); err != nil {
			return err
		}
	}
	return nil
}

// budget follows the memory a reader takes against [Options.MaxMemory]:
// the input, the parsed quorums, and the bit sets to come.
type budget struct {
	max  int64  // 0: no limit
	used int64  // input and the bit sets of the quorums so far
	data []byte // the input, to estimate the whole from the part read
	// allowSparse is Options.Sparse: the bit sets are charged once the
	// form is chosen, not quorum by quorum.
	allowSparse bool
	// implicit is Options.Implicit, which the readers of every format
	// reach through the budget they all hold.
	implicit func(kind string, params set.Params) (*set.Family, error)
}

func newBudget(maxMemory int64, data []byte) *budget {
	return &budget{max: maxMemory, used: int64(len(data)), data: data}
}

// quorumCost is what one quorum takes while it is read: its ids in the
// arena, its end, line and largest node, and an owner. The arena becomes
// the family's node lists when the quorums stay sparse; otherwise the bit
// sets are charged once all are read (see [budget.sparse]).
func quorumCost(ids int) int64 {
	return int64(4*ids) + 4*4 + 8 + 8
}

// setCost is what the bit set of a quorum whose largest node is top
// (0-based) takes: one Set in the family, its words rounded up as the
// allocator does.
func setCost(top int32) int64 {
	return 32 + int64(top/64+1)*8*9/8
}

// denseFloor is the memory below which the quorums of a family are always
// held as bit sets, whatever their node ids (and the budget allows).
const denseFloor = 64 << 20

// sparseRatio is how many times the bit sets may outweigh the node lists
// before a family is held as lists.
const sparseRatio = 4

// sparse decides how the quorums of q are held once read: as node lists
// ([set.Lists]) when sparse may be chosen and the bit sets would take more
// than denseFloor and sparseRatio times the lists, or more than the budget
// has left; otherwise as bit sets, which it charges (line is where an
// error points).
func (b *budget) sparse(q *quorumList, allowed bool, line int) (bool, error) {
	if !b.allowSparse {
		return false, nil // charged quorum by quorum
	}
	var dense int64
	for _, top := range q.top {
		dense += setCost(top)
	}
	lists := 4*int64(q.nodes) + 8*int64(len(q.end))
	if allowed && (dense > denseFloor && dense > sparseRatio*lists || b.max > 0 && b.used+dense > b.max) {
		return true, nil
	}
	return false, b.charge(dense, line)
}

// add charges a quorum read at line; past the limit it returns the error
// that stops reading there.
func (b *budget) add(ids, top, line int) error {
	c := quorumCost(ids)
	if !b.allowSparse {
		c += setCost(int32(top))
	}
	return b.charge(c, line)
}

// charge charges bytes for what was read at line.
func (b *budget) charge(bytes int64, line int) error {
	b.used += bytes
	if b.max > 0 && b.used > b.max {
		return &SyntaxError{Line: line, err: set.ErrMemoryBudget,
			Msg: fmt.Sprintf("reading stops here: the quorums up to this line would take more than the memory budget of %s%s "+
				"(each quorum takes 4 bytes a node, and a bit set as long as its largest node id when that fits); "+
				"number the nodes 1..n with n as small as it can be, give a system whose quorums are all w-subsets as \"threshold\": w, or allow more memory",
				ByteSize(b.max), b.estimate(line))}
	}
	return nil
}

// estimate guesses, from the lines read so far, what the whole input
// would take: ", about 1.2 GiB for the whole file", or "" if the guess
// says nothing more.
func (b *budget) estimate(line int) string {
	input := int64(len(b.data))
	total := 1 + bytes.Count(b.data, []byte{'\n'})
	if line < 1 || total <= line || b.used <= input {
		return ""
	}
	whole := input + int64(float64(b.used-input)*float64(total)/float64(line))
	return ", about " + ByteSize(whole) + " for the whole file"
}
