package main

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// defaultWidth is the width a table must fit when the output is not a
// terminal and COLUMNS is not set: the same bytes on every machine.
const defaultWidth = 120

// outputWidth is the width of the output: COLUMNS when set, else the
// terminal's width when the output is a terminal, else defaultWidth.
func outputWidth(s *streams) int {
	if v, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && v > 0 {
		return v
	}
	if s.outTerminal && s.outPath == "" {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return defaultWidth
}

// tableWidth is the width of the table renderTable draws.
func tableWidth(header []string, rows [][]string) int {
	ncol := len(header)
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	widths := make([]int, ncol)
	for _, r := range append([][]string{header}, rows...) {
		for j, c := range r {
			widths[j] = max(widths[j], cellWidth(escapeField(c)))
		}
	}
	total := 1
	for _, w := range widths {
		total += w + 3
	}
	return total
}

// renderFitted draws a table with one row per item (the first column
// names it), as is when it fits width or wide is set, else transposed:
// one column per item, one row per figure.
func renderFitted(w io.Writer, width int, wide bool, header []string, rows [][]string) error {
	if wide || len(rows) == 0 || tableWidth(header, rows) <= width {
		return renderTable(w, header, rows)
	}
	th := []string{header[0]}
	for _, r := range rows {
		th = append(th, r[0])
	}
	var tr [][]string
	for j := 1; j < len(header); j++ {
		r := []string{header[j]}
		for _, row := range rows {
			c := ""
			if j < len(row) {
				c = row[j]
			}
			r = append(r, c)
		}
		tr = append(tr, r)
	}
	return renderTable(w, th, tr)
}

// wrapExpr cuts an expression longer than width at its top-level " + "
// (or, in a product, its top-level "*"), each piece after the first
// starting with the operator. A term too long by itself stays whole.
func wrapExpr(e string, width int) []string {
	if width < 20 || cellWidth(e) <= width {
		return []string{e}
	}
	for _, op := range []string{" + ", "*"} {
		parts := topLevel(e, op)
		if len(parts) < 2 {
			continue
		}
		var out []string
		cur := parts[0]
		for _, p := range parts[1:] {
			if cellWidth(cur)+len(op)+cellWidth(p) > width {
				out = append(out, cur)
				cur = strings.TrimLeft(op, " ") + p
			} else {
				cur += op + p
			}
		}
		return append(out, cur)
	}
	return []string{e}
}

// topLevel splits e at each op outside parentheses.
func topLevel(e, op string) []string {
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(e); i++ {
		switch {
		case e[i] == '(':
			depth++
		case e[i] == ')':
			depth--
		case depth == 0 && strings.HasPrefix(e[i:], op):
			parts = append(parts, e[last:i])
			last = i + len(op)
			i += len(op) - 1
		}
	}
	return append(parts, e[last:])
}
