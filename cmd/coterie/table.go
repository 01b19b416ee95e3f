package main

import (
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// renderTable writes rows under header as an aligned text table. Control
// characters in cells (a label, a kind, a file name) are escaped, line
// breaks too: a table is read on a terminal.
func renderTable(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
	)
	t.Header(toAny(header)...)
	for _, r := range rows {
		if err := t.Append(toAny(r)...); err != nil {
			return err
		}
	}
	return t.Render()
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = escapeField(s)
	}
	return out
}
