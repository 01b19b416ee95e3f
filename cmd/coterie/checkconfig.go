package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/report"
	"github.com/coterie-dev/coterie/systems"
)

type checkConfigOptions struct {
	format string
	ps     []float64
	pNode  string
	asJSON bool
	cmd    *cobra.Command
}

func newCheckConfigCmd(s *streams) *cobra.Command {
	var o checkConfigOptions
	cmd := &cobra.Command{
		Use:   "check-config FILE",
		Short: "The verdict on a ZooKeeper, etcd, Cassandra, MongoDB or Flexible Paxos configuration",
		Long: `Read a replicated system's configuration and print, on one screen, what an
operator wants to know: whether it is safe (every read or phase-1 quorum
meets every write or phase-2 quorum; if not, a pair that does not meet), how
many node failures and which datacentre failures reads and writes survive,
its exact availability when every node is up with probability --p, and the
most useful warning about it.

The configuration's format is recognised from its content, or named with
--input-format: ` + strings.Join(systemFormatNames(), ", ") + `. See docs/systems.md.

Exit status: 0 safe, 1 not safe, 2 a malformed configuration.`,
		Example: `  coterie check-config keyspace.cql --p 0.999
  coterie check-config rs.json --json`,
		Args: needFiles("the configuration FILE", 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("check-config reads one configuration FILE, not %d", len(args))
			}
			o.cmd = cmd
			return runCheckConfig(cmd.Context(), s, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.format, "input-format", "", "the configuration's format: "+strings.Join(systemFormatNames(), "|")+" (default: recognised from the content)")
	addProbsFlag(cmd, &o.ps, []float64{0.99}, "probabilities that a node is up: the availability is given at each")
	addPNodeFlag(cmd, &o.pNode)
	addOutputFlag(cmd, s)
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the verdict as JSON")
	_ = cmd.RegisterFlagCompletionFunc("input-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return systemFormatNames(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runCheckConfig(ctx context.Context, s *streams, o checkConfigOptions, path string) error {
	cfg, err := readConfigFile(ctx, s, path, inputOptions{format: o.format, cmd: o.cmd})
	if err != nil {
		return err
	}
	name := displayName(path)
	own, err := parsePNode(o.pNode, cfg.N(), cfg.Labels)
	if err != nil {
		return err
	}
	v, err := checkConfig(ctx, name, cfg, o.ps, own)
	if err != nil {
		return err
	}
	if err := writeOutput(s, "", func(w io.Writer) error {
		if o.asJSON {
			return writeJSON(w, v)
		}
		return printConfigVerdict(w, v, cfg)
	}); err != nil {
		return err
	}
	if !v.Safe {
		return failed()
	}
	return nil
}

// checkConfig is the verdict of analysis.CheckConfig in the shape of
// check-config's report.
func checkConfig(ctx context.Context, name string, cfg *systems.Config, ps []float64, own map[int]float64) (*jsonreport.CheckConfig, error) {
	res, err := analysis.CheckConfig(ctx, cfg, analysis.ConfigOptions{Points: ps, Override: own})
	var fe *analysis.FigureError
	if errors.As(err, &fe) && fe.Figure == analysis.Quorums {
		return nil, configListError(name, fe.Err)
	}
	if errors.As(err, &fe) {
		return nil, fe.Err
	}
	if err != nil {
		return nil, err
	}
	return jsonreport.FromCheckConfig(name, res, ps), nil
}

// printConfigVerdict prints the verdict as a short labelled list.
func printConfigVerdict(w io.Writer, v *jsonreport.CheckConfig, cfg *systems.Config) error {
	var b strings.Builder
	nodes := v.Labels
	if len(nodes) > 12 {
		nodes = append(append([]string(nil), nodes[:11]...), "…")
	}
	fmt.Fprintf(&b, "%s: %s, %d nodes: %s\n", v.File, v.System, v.N, strings.Join(escapeFields(nodes), " "))
	line := func(key, format string, args ...any) {
		fmt.Fprintf(&b, "  %-14s %s\n", key+":", fmt.Sprintf(format, args...))
	}
	sides := []struct{ what, one string }{{"reads", "read"}, {"writes", "write"}}
	switch cfg.System {
	case "fpaxos":
		sides = []struct{ what, one string }{{"phase-1 quorums", "phase-1"}, {"phase-2 quorums", "phase-2"}}
	case "mongodb":
		sides = []struct{ what, one string }{{"elections", "election"}, {"writes", "write"}}
	}
	kinds := fmt.Sprintf("one kind of quorum (%s and %s alike)", sides[0].one, sides[1].one)
	if !v.Coterie {
		kinds = fmt.Sprintf("%s and %s quorums differ", sides[0].one, sides[1].one)
	}
	line("quorums", "%s", kinds)
	if v.Safe {
		line("safe", "yes: every %s quorum meets every %s quorum", sides[0].one, sides[1].one)
	} else {
		line("safe", "NO: the %s quorum {%s} misses the %s quorum {%s}", sides[0].one, strings.Join(escapeFields(v.Witness.Read), ", "),
			sides[1].one, strings.Join(escapeFields(v.Witness.Write), ", "))
	}
	survive := func(f int, kill []string) string {
		return survival(f, "node", kill)
	}
	if v.Coterie {
		line("node failures", "quorums %s", survive(v.ReadResilience, v.ReadKill))
	} else {
		line("node failures", "%s %s; %s %s", sides[0].what, survive(v.ReadResilience, v.ReadKill), sides[1].what, survive(v.WriteResilience, v.WriteKill))
	}
	if v.DomainRes != nil {
		var each []string
		for _, d := range v.Domains {
			verdict := func(ok bool) string {
				if ok {
					return "go on"
				}
				return "stop"
			}
			if v.Coterie {
				each = append(each, fmt.Sprintf("losing %s, quorums %s", escapeField(d.Domain), verdict(d.Reads)))
			} else {
				each = append(each, fmt.Sprintf("losing %s, %s %s and %s %s", escapeField(d.Domain), sides[0].what, verdict(d.Reads), sides[1].what, verdict(d.Writes)))
			}
		}
		line("datacentres", "%s", strings.Join(each, "; "))
		dres := func(f int, kill []string) string {
			return survival(f, "datacentre", kill)
		}
		if v.Coterie {
			line("", "quorums %s", dres(v.DomainRes.Reads, v.DomainRes.ReadKill))
		} else {
			line("", "%s %s; %s %s", sides[0].what, dres(v.DomainRes.Reads, v.DomainRes.ReadKill), sides[1].what, dres(v.DomainRes.Writes, v.DomainRes.WriteKill))
		}
	}
	avs := v.AvailabilityAt
	if avs == nil {
		a := v.Availability
		a.P = v.P
		avs = []jsonreport.ConfigAvailability{a}
	}
	for i, a := range avs {
		key := "availability"
		if i > 0 {
			key = ""
		}
		exact := ""
		if !a.Exact {
			exact = " (estimated)"
		}
		if v.Coterie {
			line(key, "%s at p = %v%s", report.AvailabilityText(a.Reads), a.P, exact)
		} else {
			line(key, "%s %s, %s %s at p = %v%s", sides[0].what, report.AvailabilityText(a.Reads), sides[1].what, report.AvailabilityText(a.Writes), a.P, exact)
		}
	}
	for i, n := range v.Notes {
		key := ""
		if i == 0 {
			key = "warning"
		}
		line(key, "%s", escapeField(n))
	}
	if len(v.Notes) == 0 {
		line("warning", "none")
	}
	_, err := io.WriteString(w, strings.ReplaceAll(b.String(), "  :", "   "))
	return err
}

// survival says how many failures a side survives and which stop it.
func survival(f int, noun string, kill []string) string {
	if f == 0 {
		return fmt.Sprintf("survive no %s failure (losing %s stops them)", noun, strings.Join(escapeFields(kill), ", "))
	}
	return fmt.Sprintf("survive any %s failing (losing %s stops them)", countOf(f, noun), strings.Join(escapeFields(kill), ", "))
}

// countOf returns "1 node", "2 nodes".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func escapeFields(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = escapeField(l)
	}
	return out
}
