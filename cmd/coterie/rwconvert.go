package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/rw"
)

// nameRE is a label an expression can hold.
var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

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
	labels := rwLabels(sys)
	names := make([]string, sys.N)
	for v := range names {
		names[v] = strconv.Itoa(v + 1)
	}
	if labels != nil {
		ok := true
		for _, l := range labels {
			ok = ok && nameRE.MatchString(l)
		}
		if ok {
			copy(names, labels)
		}
	}
	type sideOut struct {
		key  string
		sd   *rw.Side
		skip bool
	}
	sides := []sideOut{{"reads", &sys.Reads, sys.ReadsDerived}, {"writes", &sys.Writes, sys.WritesDerived}}
	return writeOutput(s, out.path, func(w io.Writer) error {
		if kind == "text" {
			fmt.Fprintf(w, "# n: %d\n", sys.N)
			if labels != nil {
				b, _ := json.Marshal(labels)
				fmt.Fprintf(w, "# labels: %s\n", b)
			}
			for _, so := range sides {
				if so.skip {
					continue
				}
				if so.sd.List == nil {
					fmt.Fprintf(w, "# %s: %s\n", so.key, so.sd.Expr.Relabel(names))
					continue
				}
				fmt.Fprintf(w, "# %s\n", so.key)
				for i := range so.sd.List.Quorums {
					var parts []string
					for v := range so.sd.List.Quorums[i].All() {
						parts = append(parts, names[v])
					}
					fmt.Fprintln(w, strings.Join(parts, " "))
				}
			}
			return nil
		}
		type fileJSON struct {
			Format string   `json:"format"`
			N      int      `json:"n"`
			Labels []string `json:"labels,omitempty"`
			Reads  any      `json:"reads,omitempty"`
			Writes any      `json:"writes,omitempty"`
			// Failure domains: rwconvert_domains.go.
			Nodes   []nodeDomainJSON `json:"nodes,omitempty"`
			Domains []domainPJSON    `json:"domains,omitempty"`
		}
		f := fileJSON{Format: "coterie/1", N: sys.N, Labels: labels}
		f.Nodes, f.Domains = domainsFileJSON(ld.tree)
		for _, so := range sides {
			if so.skip {
				continue
			}
			var v any
			if so.sd.List == nil {
				v = so.sd.Expr.Relabel(names).String()
			} else {
				qs := make([][]int, len(so.sd.List.Quorums))
				for i := range qs {
					qs[i] = ids(&so.sd.List.Quorums[i])
				}
				v = qs
			}
			if so.key == "reads" {
				f.Reads = v
			} else {
				f.Writes = v
			}
		}
		return writeJSON(w, f)
	})
}
