package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/protocol"
)

// plotMessages draws messages per entry against the number of nodes, one
// line per protocol, in the format path's extension names.
func plotMessages(w io.Writer, path string, runs []simRun, load protocol.Load) error {
	chart := &draw.Chart{
		Title:   fmt.Sprintf("Messages per critical-section entry, %s demand", load),
		X:       draw.Axis{Label: "N (nodes)"},
		Y:       draw.Axis{Label: "messages per entry"},
		Markers: true,
		Width:   6,
		Height:  4,
	}
	type point struct{ n, m float64 }
	var names []string
	by := map[string][]point{}
	for _, r := range runs {
		name := r.res.Protocol
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		by[name] = append(by[name], point{float64(r.res.N), r.res.MessagesPerEntry})
	}
	for _, name := range names {
		pts := by[name]
		slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.n, b.n) })
		s := draw.Series{Label: name}
		for _, pt := range pts {
			s.X, s.Y = append(s.X, pt.n), append(s.Y, pt.m)
		}
		chart.Series = append(chart.Series, s)
	}
	if err := chart.Write(w, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}
