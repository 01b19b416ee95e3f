package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

type verifyOptions struct {
	rwInput
	k        int
	asJSON   bool
	method   string
	patterns int
	byz      byzantineOptions
}

func newVerifyCmd(s *streams) *cobra.Command {
	var o verifyOptions
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Check intersection and minimality, with a witness for every failure",
		Long: `Check a quorum system: intersection (every two quorums meet for a coterie;
every k+1 quorums share a node for a k-arbiter; for an (h,k)-arbiter, every
quorum assignment of every critical conflicting request pattern has a common
node, Manabe and Tajima's Theorem 1) and minimality (no quorum contains
another). A failure names its witness: the quorums (1-based positions in the
file; for an (h,k)-arbiter the request pattern and, per request, its h and the
quorum's position in level h).

Maekawa's properties (b) every quorum contains its owner, (c) equal size,
(d) equal responsibility, and the projective-plane property (every two
quorums meet in exactly one node) are reported as information: they never
make a system invalid. In the --json report they carry "info": true; a check
that did not finish carries "undecided": true, and so does the report.
Positions and nodes are 1-based; a threshold system has no positions, so its
witness lists the quorums' nodes ("sets", or "set" per request).

Threshold systems are decided by counting. Explicit ones go through a pruned
parallel search; --method brute tries every choice instead, as a cross-check.
Long runs show progress on a terminal; --timeout or Ctrl-C ends them with an
"undecided" verdict.

Exit status: 0 every property holds, 1 a property fails, 2 usage or input
error, or undecided within the time limit.

A read-write system (--reads/--writes, or a file with "reads" and "writes")
is checked for read-write intersection, with a read and a write quorum that
do not meet as the witness; write-write intersection is information, or a
check with --require-ww.

"coterie verify --patterns K" lists the critical conflicting request patterns
of k = K instead of checking a file.`,
		Example: `  coterie generate fpp --order 3 -o p3.json && coterie verify p3.json
  coterie verify p3.json --k 2 --json
  coterie verify --patterns 4`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("patterns") {
				if len(args) > 0 {
					return usageErrorf("--patterns lists patterns and reads no file")
				}
				return runPatterns(cmd.Context(), s, o)
			}
			if rwWanted(cmd, s, args) {
				return runRWVerify(cmd.Context(), s, o.rw, o.in, args, o.asJSON)
			}
			if len(args) == 0 {
				return usageErrorf("verify needs a quorum file (or --patterns K)")
			}
			return runVerify(cmd.Context(), s, o, args[0], cmd.Flags().Changed("k"))
		},
	}
	addRWInputFlags(cmd, &o.rwInput)
	cmd.Flags().BoolVar(&o.rw.requireWW, "require-ww", false, "read-write systems: fail unless every two write quorums meet too")
	cmd.Flags().IntVar(&o.k, "k", 0, "check as a k-arbiter: every k+1 quorums must share a node (default: the file's k)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&o.method, "method", "search", "how to decide intersection: search|brute")
	cmd.Flags().IntVar(&o.patterns, "patterns", 0, "list the critical request patterns of k = `K` and exit")
	addByzantineFlags(cmd, &o.byz)
	_ = cmd.RegisterFlagCompletionFunc("method", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"search", "brute"}, cobra.ShellCompDirectiveNoFileComp
	})
	addOutputFlag(cmd, s)
	return cmd
}

func runVerify(ctx context.Context, s *streams, o verifyOptions, path string, kGiven bool) error {
	method, err := verify.ParseMethod(o.method)
	if err != nil {
		return usageErrorf("--method: unknown method %q (want search or brute)", o.method)
	}
	sys, err := readSystem(s, path, o.in)
	if err != nil {
		return err
	}
	implicitFam := sys.Family
	implicitRep, listed, err := implicitVerify(ctx, o.in.cmd, s, displayName(path), &sys, o.byz.given != nil && o.byz.given(), kGiven && o.k != 1)
	if err != nil {
		return err
	}
	if kGiven {
		if o.k < 1 {
			return usageErrorf("--k must be at least 1, not %d", o.k)
		}
		if sys.HK != nil {
			if o.k != sys.HK.K {
				return usageErrorf("--k %d: %s is an (h,k)-arbiter with k = %d, which its levels depend on", o.k, displayName(path), sys.HK.K)
			}
		} else {
			f := *sys.Family // a shallow copy: only K changes
			f.K = o.k
			sys.Family = &f
		}
	}
	bar := newProgress(s, "verify")
	rep, err := implicitRep, error(nil)
	if rep == nil {
		rep, err = verify.Verify(ctx, sys, verify.Options{Method: method, Progress: func(_ string, done, total int64) {
			bar.Update(done, total)
		}})
	}
	bar.Done()
	if err != nil {
		return &codeError{code: exitError, err: err}
	}
	if listed {
		if c, ok := verify.ConstructionCheckOf(implicitFam); ok {
			rep.Checks = append(rep.Checks, c)
		}
	}
	if err := o.byz.check(ctx, sys, rep); err != nil {
		return err
	}
	if err := writeOutput(s, "", func(w io.Writer) error {
		if o.asJSON {
			return encodeJSON(w, jsonreport.FromVerify(rep), false) // details say "<" and "≥"
		}
		return writeVerifyText(w, displayName(path), sys, rep)
	}); err != nil {
		return err
	}
	switch {
	case rep.Failed() != nil:
		return failed()
	case rep.Undecided:
		if err := ctx.Err(); err != nil {
			return &codeError{code: exitError, err: err}
		}
		return &codeError{code: exitError, err: fmt.Errorf("verify: undecided")}
	}
	return nil
}

// writeVerifyText prints the report for people: a verdict line, one line
// per check, and under a failure the witness quorums with their nodes.
func writeVerifyText(w io.Writer, name string, sys set.System, r *verify.Report) error {
	fmt.Fprintf(w, "%s: %s\n", name, report.Verdict(sys, r))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range r.Checks {
		status, label := report.CheckStatus(c), report.CheckLabel(c)
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", status, label, c.Detail)
		if c.Witness != nil && !c.OK {
			for _, line := range witnessLines(sys, c) {
				fmt.Fprintf(tw, "\t\t  %s\n", line)
			}
		}
	}
	return tw.Flush()
}

// witnessLines describes a witness: each quorum by its position and nodes.
func witnessLines(sys set.System, c verify.Check) []string {
	w := c.Witness
	var lines []string
	fam := sys.Family
	if sys.HK != nil && c.H > 0 {
		fam = sys.HK.Level(c.H)
	}
	if len(w.Pattern) > 0 {
		lines = append(lines, "request pattern "+verify.FormatPattern(w.Pattern)+":")
		for _, rq := range w.Requests {
			if rq.Quorum < 0 {
				lines = append(lines, fmt.Sprintf("h = %d: %s", rq.H, nodeList(rq.Set)))
				continue
			}
			q := &sys.HK.Level(rq.H).Quorums[rq.Quorum]
			lines = append(lines, fmt.Sprintf("h = %d: quorum %d of level %d %s", rq.H, rq.Quorum+1, rq.H, nodeList(q.Elements())))
		}
		return lines
	}
	for _, s := range w.Sets {
		lines = append(lines, "quorum "+nodeList(s))
	}
	var roles []string
	switch c.Name {
	case "equal_size":
		roles = []string{"smallest ", "largest "}
	case "minimality":
		roles = []string{"", "is inside "}
	case "equal_responsibility":
		return []string{fmt.Sprintf("least loaded node %d, most loaded node %d", w.Nodes[0]+1, w.Nodes[1]+1)}
	}
	if fam != nil && !fam.IsThreshold() {
		for k, i := range w.Quorums {
			role := ""
			if k < len(roles) {
				role = roles[k]
			}
			lines = append(lines, fmt.Sprintf("%squorum %d %s", role, i+1, nodeList(fam.AppendQuorum(nil, i))))
		}
	}
	if len(w.Nodes) > 0 {
		what := "nodes "
		switch c.Name {
		case "projective_plane", "byzantine_intersection":
			what = "common nodes "
		case "owner_in_quorum":
			what = "missing owner "
		case "byzantine_availability":
			what = "nodes meeting every quorum "
		}
		lines = append(lines, what+nodeList(w.Nodes))
	}
	return lines
}

// nodeList formats 0-based nodes 1-based, "{1 2 3}", eliding long lists.
func nodeList(nodes []int) string {
	const show = 24
	var sb strings.Builder
	sb.WriteByte('{')
	for i, v := range nodes {
		if i == show {
			fmt.Fprintf(&sb, " … (%d nodes)", len(nodes))
			break
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprint(&sb, v+1)
	}
	sb.WriteByte('}')
	return sb.String()
}

// runPatterns lists the critical conflicting request patterns of k, one
// per line as the paper writes bags, or as JSON.
func runPatterns(ctx context.Context, s *streams, o verifyOptions) error {
	k := o.patterns
	if k < 1 || k > 200 {
		return usageErrorf("--patterns %d: k must be in 1..200 (the number of patterns grows like the partitions of k)", k)
	}
	return writeOutput(s, "", func(w io.Writer) error {
		count := 0
		if o.asJSON {
			fmt.Fprintf(w, "{\"k\": %d, \"patterns\": [", k)
		}
		for r := range verify.CriticalPatterns(k) {
			if count&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if o.asJSON {
				if count > 0 {
					io.WriteString(w, ", ")
				}
				b, _ := json.Marshal(r)
				w.Write(b)
			} else {
				fmt.Fprintln(w, verify.FormatPattern(r))
			}
			count++
		}
		if o.asJSON {
			fmt.Fprintf(w, "], \"count\": %d}\n", count)
		}
		return nil
	})
}
