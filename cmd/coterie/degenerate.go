package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

type degenerateOptions struct {
	in    inputOptions
	out   outputOptions
	n     int
	mapTo string
}

func newDegenerateCmd(s *streams) *cobra.Command {
	var o degenerateOptions
	cmd := &cobra.Command{
		Use:   "degenerate FILE --n N",
		Short: "Shrink a system to nodes 1..N by Maekawa's Method 1",
		Long: `Apply Maekawa's Method 1 (ACM TOCS 1985, Section 7) to a system: keep nodes
1..N, replace every node above N by a distinct node ≤ N in every quorum, and
drop the quorums owned by nodes above N. Quorums that met still meet. A file
without owners gets them first by a node-to-quorum matching (each node owns a
quorum that contains it). N must keep at least half the nodes.

--map min (the default) chooses the replacement that makes the quorums, and
so the messages per entry, as small as Method 1 allows; --map paper is
Maekawa's own x ↦ x − (n − N).

The result is verified before it is written: if it fails (an input that was
not a coterie or k-arbiter), nothing is written and the witness goes to
stderr, exit status 1.

  coterie degenerate plane.json --n 10 -o ten.json
  coterie degenerate testdata/maekawa-fig1-k3.txt --n 5 --map paper --format text`,
		Args: argsBetween("the quorum FILE to degenerate", 1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDegenerate(cmd.Context(), s, o, args[0])
		},
	}
	addInputFlags(cmd, &o.in)
	addOutputFlags(cmd, &o.out)
	cmd.Flags().IntVar(&o.n, "n", 0, "number of nodes to keep (required)")
	cmd.Flags().StringVar(&o.mapTo, "map", "min", "replacement of removed nodes: min (smallest quorums) or paper (x ↦ x − (n−N))")
	_ = cmd.MarkFlagRequired("n")
	_ = cmd.RegisterFlagCompletionFunc("map", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"min", "paper"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runDegenerate(ctx context.Context, s *streams, o degenerateOptions, path string) error {
	how, err := construct.ParseDegenerateMap(o.mapTo)
	if err != nil {
		return usageErrorf("--map: %s", construct.Describe(err, "", nil))
	}
	sys, err := readSystem(s, path, o.in)
	if err != nil {
		return err
	}
	if sys.HK != nil {
		return asInputError(displayName(path), 0, "an (h,k)-arbiter has one quorum list per level: degenerate works on a coterie or k-arbiter")
	}
	f, err := construct.Degenerate(ctx, sys.Family, o.n, how)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return usageErrorf("%s: %s", displayName(path), construct.Describe(err, "degenerate", nil))
	}
	return o.out.writeVerified(ctx, s, "degenerate", set.System{Family: f})
}
