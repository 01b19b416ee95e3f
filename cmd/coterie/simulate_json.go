package main

import (
	"io"

	"github.com/coterie-dev/coterie/jsonreport"
)

// writeSimJSON writes the report of one run as an object, of several as an
// array.
func writeSimJSON(w io.Writer, runs []simRun) error {
	out := make([]jsonreport.Simulation, len(runs))
	for i, r := range runs {
		out[i] = jsonreport.NewSimulation(r.file, r.res)
	}
	if len(out) == 1 {
		return writeJSON(w, out[0])
	}
	return writeJSON(w, out)
}

// writeExploreJSON writes the verdict of one exploration as an object, of
// several as an array (null for none).
func writeExploreJSON(w io.Writer, runs []exploreRun) error {
	if len(runs) == 1 {
		return writeJSON(w, jsonreport.NewExploration(runs[0].file, runs[0].res))
	}
	var out []jsonreport.Exploration
	for _, r := range runs {
		out = append(out, jsonreport.NewExploration(r.file, r.res))
	}
	return writeJSON(w, out)
}
