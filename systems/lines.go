package systems

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// configSizeLimit is the largest configuration file read: configurations are
// small, and a larger file is refused rather than scanned.
const configSizeLimit = 1 << 20

// confLine is one meaningful line of a line-oriented configuration: its
// 1-based number and its text without comments and surrounding space.
type confLine struct {
	no   int
	text string
}

// splitConfLines splits data into lines, dropping comments (from "#" or "--"
// or "//" to the end of the line) and blank lines. It refuses a file over
// configSizeLimit bytes, one that is not UTF-8, or one holding a NUL byte or
// another control character than tab and carriage return.
func splitConfLines(name string, data []byte) ([]confLine, error) {
	if len(data) > configSizeLimit {
		return nil, syntaxErrorf(name, 0, "larger than %d bytes: not a configuration file", configSizeLimit)
	}
	var out []confLine
	for i, raw := range bytes.Split(data, []byte("\n")) {
		if !utf8.Valid(raw) {
			return nil, syntaxErrorf(name, i+1, "not UTF-8 text")
		}
		for _, c := range raw {
			if c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
				return nil, syntaxErrorf(name, i+1, "control character %#02x", c)
			}
		}
		s := string(raw)
		for _, mark := range []string{"#", "--", "//"} {
			if j := unquotedIndex(s, mark); j >= 0 {
				s = s[:j]
			}
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, confLine{no: i + 1, text: s})
		}
	}
	return out, nil
}

// containsFoldASCII reports whether data holds word (lower-case ASCII
// letters other than i and k) with its letters in either case. A text
// whose strings.ToLower holds word passes: apart from İ (to i) and the
// Kelvin sign (to k), no character but an ASCII letter lowers to one.
func containsFoldASCII(data []byte, word string) bool {
	for i := 0; i+len(word) <= len(data); i++ {
		j := 0
		for j < len(word) && data[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// unquotedIndex returns the index of the first mark in s that is not
// inside single or double quotes, or -1.
func unquotedIndex(s, mark string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case strings.HasPrefix(s[i:], mark):
			return i
		}
	}
	return -1
}

// cutKeyValue splits "key: value" or "key = value" at the first ':' or '=';
// ok is false when the line has neither.
func cutKeyValue(s string) (key, value string, ok bool) {
	i := strings.IndexAny(s, ":=")
	if i < 0 {
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(s[:i])), strings.TrimSpace(s[i+1:]), true
}

// quoteName quotes s for a message when it is empty or holds spaces or
// control characters.
func quoteName(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' }) {
		return strconv.Quote(s)
	}
	return s
}

// countNoun returns "1 replica", "2 replicas".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
