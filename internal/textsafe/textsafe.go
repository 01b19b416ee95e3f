package textsafe

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Control characters in names, labels and kinds must not reach a terminal
// raw: ESC starts escape sequences (colours, cursor moves, OSC 8 links, the
// window title), BEL rings, CR overwrites the line. coterie shows each such
// character as a Go-style escape: \x1b for C0 controls and DEL, \u009b for
// C1 controls, \u202e for the bidirectional overrides that reorder text,
// and \xff for a byte that is not UTF-8. A backslash stays as it is.

// escapeRune returns how r (or, for r == utf8.RuneError with size 1, the
// byte b) is shown, and whether it needs escaping at all.
func escapeRune(r rune, size int, b byte, keepLayout bool) (string, bool) {
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, b), true
	case keepLayout && (r == '\n' || r == '\t'):
		return "", false
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r), true
	case r >= 0x80 && r <= 0x9f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return fmt.Sprintf(`\u%04x`, r), true
	}
	return "", false
}

func escape(s string, keepLayout bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if _, bad := escapeRune(r, size, s[i], keepLayout); bad {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if e, bad := escapeRune(r, size, s[i], keepLayout); bad {
			b.WriteString(e)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Terminal escapes the control characters of a message, keeping its line
// breaks and tabs.
func Terminal(s string) string { return escape(s, true) }

// Field escapes every control character of one value shown on one line (a
// table cell, a label): line breaks and tabs too.
func Field(s string) string { return escape(s, false) }

// Writer escapes control characters in what goes through it to W, keeping
// line breaks and tabs, as [Terminal] does. It holds back the bytes of a
// character split between two writes until the next write or [Writer.Flush].
type Writer struct {
	W    io.Writer
	part []byte
}

// Write writes p escaped; it reports all of p written when W took it.
func (e *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(e.part) > 0 {
		p = append(e.part, p...)
		e.part = nil
	}
	// Hold back an incomplete character at the end.
	end := len(p)
	for k := 1; k <= utf8.UTFMax-1 && k <= len(p); k++ {
		c := p[len(p)-k]
		if c < 0x80 {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[len(p)-k:]) {
				end = len(p) - k
			}
			break
		}
	}
	if end < len(p) {
		e.part = append([]byte(nil), p[end:]...)
	}
	if _, err := io.WriteString(e.W, Terminal(string(p[:end]))); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a held-back incomplete character (escaped).
func (e *Writer) Flush() {
	if len(e.part) > 0 {
		io.WriteString(e.W, Terminal(string(e.part)))
		e.part = nil
	}
}

// CSVCell returns a CSV report cell that a spreadsheet will not run as a
// formula: a cell starting with = + - @, a tab or a carriage return gets a
// leading ' (OWASP's rule), unless it is a plain number such as -0.5.
func CSVCell(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(cell, 64); err == nil && !strings.ContainsAny(cell, "xXpP_") {
			return cell
		}
		return "'" + cell
	}
	return cell
}

// CSV is a csv.Writer for reports whose cells go through [CSVCell].
type CSV struct{ *csv.Writer }

// NewCSV returns a CSV writing to w.
func NewCSV(w io.Writer) CSV { return CSV{csv.NewWriter(w)} }

// Write writes one record with every cell made safe.
func (c CSV) Write(record []string) error {
	safe := make([]string, len(record))
	for i, cell := range record {
		safe[i] = CSVCell(cell)
	}
	return c.Writer.Write(safe)
}
