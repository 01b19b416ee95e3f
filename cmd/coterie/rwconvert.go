package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/coterie-dev/coterie/format"
)

// runRWConvert writes a read-write system as a read-write JSON or text
// file. A side derived as the dual of the other is left out (reading the
// file derives it again); a side given as a list is written as a list, an
// expression as an expression. CSV and .dat hold one list of quorums and
// are refused.
func runRWConvert(ctx context.Context, s *streams, ro rwOptions, in inputOptions, out outputOptions, args []string) error {
	kind := out.format
	if kind == "" {
		switch strings.ToLower(filepath.Ext(out.path)) {
		case ".txt", ".q":
			kind = "text"
		case ".csv":
			kind = "csv"
		case ".dat":
			kind = "dat"
		default:
			kind = "json"
		}
	}
	switch kind {
	case "json", "text":
	case "csv", "dat":
		return usageErrorf("%s holds one list of quorums, not a read-write system: write .json or .txt (or list one side with 'coterie quorums --side reads|writes')", map[string]string{"csv": "CSV", "dat": "the .dat format"}[kind])
	default:
		return usageErrorf("--format %q: want json or text for a read-write system", kind)
	}
	ld, err := loadRWDomains(ctx, s, ro, in, args)
	if err != nil {
		return err
	}
	sys := ld.sys
	if ld.tree != nil && kind == "text" {
		return usageErrorf("the text format cannot hold failure domains: write JSON (.json), which keeps them as \"nodes\" and \"domains\"")
	}
	f := format.JSON
	if kind == "text" {
		f = format.Text
	}
	file := &format.RWSystem{N: sys.N, Labels: sys.Labels(), Domains: ld.tree,
		Reads:  format.RWSide{Expr: sys.Reads.Expr, List: sys.Reads.List, Derived: sys.ReadsDerived},
		Writes: format.RWSide{Expr: sys.Writes.Expr, List: sys.Writes.List, Derived: sys.WritesDerived}}
	return writeOutput(s, out.path, func(w io.Writer) error { return format.WriteRW(w, file, f) })
}
