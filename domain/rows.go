package domain

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Row is one node's row of a nodes file: where it was read, the node
// (0-based), its domain path ("" for none) and, when the file gave the
// path as separate columns, the names of its levels.
type Row struct {
	File   string
	Line   int
	Node   int
	Domain string
	Levels []string
}

// RowError is a problem with the domains of a nodes file, at the row
// File:Line. Line 0 is the file as a whole, File "" the file of the
// nodes without a row.
type RowError struct {
	File string
	Line int
	Msg  string
}

func (e *RowError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// FromRows builds the failure domains of n nodes from the rows of the
// nodes files, and checks them against the nodes' labels (see
// [Tree.Check]). It returns nil when no row names a domain. Its errors
// are *RowError at the row to blame: a node without a domain that has
// no row gets File "" and Line 0.
func FromRows(n int, rows []Row, labels []string) (*Tree, error) {
	t := New(n)
	rowOf := map[int]Row{}
	for _, r := range rows {
		rowOf[r.Node] = r
		if r.Domain == "" {
			continue
		}
		if err := t.Place(r.Node, r.Domain); err != nil {
			return nil, &RowError{File: r.File, Line: r.Line, Msg: err.Error()}
		}
		if r.Levels != nil {
			t.SetLevelNames(r.Levels)
		}
	}
	if t.Empty() {
		return nil, nil
	}
	err := t.Check(labels)
	if err == nil {
		return t, nil
	}
	var ne *NodeError
	if errors.As(err, &ne) {
		if r, ok := rowOf[ne.Node]; ok {
			return nil, &RowError{File: r.File, Line: r.Line, Msg: ne.Msg}
		}
		return nil, &RowError{Msg: ne.Msg + "; it has no row"}
	}
	// A domain named like a node: the first row under it.
	for _, r := range rows {
		for d := t.Node(r.Node); d >= 0 && r.Domain != ""; d = t.Parent(d) {
			if strings.Contains(err.Error(), strconv.Quote(t.Path(d))) {
				return nil, &RowError{File: r.File, Line: r.Line, Msg: strings.TrimPrefix(err.Error(), "domain: ")}
			}
		}
	}
	return nil, &RowError{Msg: err.Error()}
}
