package main

import (
	"io"
	"os"
	"strconv"

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
