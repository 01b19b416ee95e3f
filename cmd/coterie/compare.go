package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/big"
	"strconv"

	"github.com/spf13/cobra"
)

type compareOptions struct {
	in      inputOptions
	asJSON  bool
	format  string
	figures figureOptions
}

// compareRow is one system (or one level of an (h,k)-arbiter) in a
// comparison.
type compareRow struct {
	File string `json:"file"`
	N    int    `json:"n"`
	K    int    `json:"k"`
	Kind string `json:"kind,omitempty"`
	familyInfo
}

func newCompareCmd(s *streams) *cobra.Command {
	var o compareOptions
	cmd := &cobra.Command{
		Use:   "compare FILE...",
		Short: "Compare quorum systems side by side: size, messages, load, capacity, resilience",
		Long: `Print the figures engineers choose a quorum system by, one row per system (one
per level for an (h,k)-arbiter): quorums, mean quorum size, messages per entry
under Maekawa's algorithm (light demand), load and capacity (Naor and Wool),
network load and resilience. --format csv gives one CSV row per system, --json
the full reports.

  coterie compare plane.json grid.json billiard.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := o.format
			if o.asJSON {
				f = "json"
			}
			if f == "" {
				f = "table"
			}
			if f != "table" && f != "csv" && f != "json" {
				return usageErrorf("--format %q: want table, csv or json", f)
			}
			var rows []compareRow
			for _, path := range args {
				sys, err := readSystem(s, path, o.in)
				if err != nil {
					return err
				}
				rep, err := newInfoReport(cmd.Context(), sys, o.figures, false)
				if err != nil {
					return err
				}
				fams := rep.Levels
				if rep.familyInfo != nil {
					fams = []familyInfo{*rep.familyInfo}
				}
				for _, fi := range fams {
					rows = append(rows, compareRow{File: displayName(path), N: rep.N, K: rep.K, Kind: rep.Kind, familyInfo: fi})
				}
			}
			return writeOutput(s, "", func(w io.Writer) error {
				switch f {
				case "json":
					return writeJSON(w, struct {
						Systems []compareRow `json:"systems"`
					}{rows})
				case "csv":
					return compareCSV(w, rows)
				}
				return compareTable(w, rows)
			})
		},
	}
	addInputFlags(cmd, &o.in)
	addFigureFlags(cmd, &o.figures)
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the reports as JSON (same as --format json)")
	cmd.Flags().StringVar(&o.format, "format", "", "table, csv or json (default table)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"table", "csv", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func (r compareRow) name() string {
	if r.H > 0 {
		return fmt.Sprintf("%s (h=%d)", r.File, r.H)
	}
	return r.File
}

// figure formats an optional measured value, exactly when it is known.
func figure(v *float64, exact string) string {
	switch {
	case v == nil:
		return "–"
	case exact != "":
		r, _ := new(big.Rat).SetString(exact)
		if r.IsInt() {
			return exact
		}
		return exact + " ≈ " + strconv.FormatFloat(*v, 'f', 4, 64)
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}

func compareTable(w io.Writer, rows []compareRow) error {
	header := []string{"system", "kind", "n", "k", "quorums", "mean |Q|", "messages", "load", "capacity", "net load", "resilience"}
	var cells [][]string
	for _, r := range rows {
		res := "–"
		if r.Resilience != nil {
			res = strconv.Itoa(*r.Resilience)
		}
		net := "–"
		if r.NetworkLoad != nil {
			net = strconv.FormatFloat(*r.NetworkLoad, 'f', 4, 64)
		}
		cells = append(cells, []string{
			r.name(), r.Kind, strconv.Itoa(r.N), strconv.Itoa(r.K), r.Quorums.String(),
			strconv.FormatFloat(r.QuorumSize.Mean, 'f', 4, 64), decimal(r.messagesExact),
			figure(r.Load, r.LoadExact), figure(r.Capacity, r.CapacityExact), net, res,
		})
	}
	if err := renderTable(w, header, cells); err != nil {
		return err
	}
	for _, r := range rows {
		for _, n := range r.Notes {
			if _, err := fmt.Fprintf(w, "%s: %s\n", r.name(), n); err != nil {
				return err
			}
		}
	}
	return nil
}

func compareCSV(w io.Writer, rows []compareRow) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"file", "h", "kind", "n", "k", "quorums", "quorum_size_mean", "messages_per_entry",
		"load", "load_exact", "capacity", "network_load", "resilience"})
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range rows {
		h, res := "", ""
		if r.H > 0 {
			h = strconv.Itoa(r.H)
		}
		if r.Resilience != nil {
			res = strconv.Itoa(*r.Resilience)
		}
		_ = cw.Write([]string{r.File, h, r.Kind, strconv.Itoa(r.N), strconv.Itoa(r.K), r.Quorums.String(),
			strconv.FormatFloat(r.QuorumSize.Mean, 'g', -1, 64), strconv.FormatFloat(r.MessagesPerEntry, 'g', -1, 64),
			opt(r.Load), r.LoadExact, opt(r.Capacity), opt(r.NetworkLoad), res})
	}
	cw.Flush()
	return cw.Error()
}
