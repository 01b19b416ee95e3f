package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

type joinOptions struct {
	in    inputOptions
	out   outputOptions
	at    string
	limit int
}

func newJoinCmd(s *streams) *cobra.Command {
	var o joinOptions
	cmd := &cobra.Command{
		Use:   "join OUTER INNER --at X [-o FILE]",
		Short: "Kuo's k-arbiter join: replace node X of OUTER by the quorums of INNER",
		Long: `Join two coteries or k-arbiters with the same k (Y.-C. Kuo, "k-Arbiter join
operation", JISE 2001): every quorum of OUTER that contains node X becomes,
for each quorum of INNER, that quorum with X replaced by the INNER quorum;
quorums without X stay. The join of k-arbiters is a k-arbiter, and it is
nondominated iff both inputs are. The result is verified before it is
written: if it fails (inputs that are not coteries), nothing is written and
the witness goes to stderr, exit status 1.

X is a node number 1..n of OUTER, or one of its labels. The result has the
nodes of OUTER except X, in order (1..n1-1), then those of INNER
(n1..n1+n2-1). Every node gets a label saying where it came from: OUTER's
label or number, and INNER's labels, or "X.j" for INNER's node j when INNER
has no labels (or they clash with OUTER's). The params record at, outer_n,
inner_n and the inputs' kinds.

Threshold inputs (majority, uniform) are listed; the command refuses a join
of more than --limit quorums.

  coterie generate uniform --n 4 --k 2 -o c1.json
  coterie join c1.json c1.json --at 4 -o joined.json`,
		Args: argsBetween("two quorum files, OUTER and INNER", 2, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runJoin(cmd.Context(), s, o, args[0], args[1])
		},
	}
	cmd.Flags().StringVar(&o.at, "at", "", "the node `X` of OUTER to replace: a number 1..n or a label (required)")
	_ = cmd.MarkFlagRequired("at")
	cmd.Flags().IntVar(&o.limit, "limit", 1000000, "refuse a join with more than this many quorums")
	cmd.Flags().StringVarP(&o.out.path, "output", "o", "", "write to `FILE` (default: standard output); the extension picks the format")
	cmd.Flags().StringVar(&o.out.format, "format", "", "write json|text|csv|dat (default: by the output's extension, else json)")
	cmd.Flags().IntVar(&o.out.base, "output-base", 1, "number of the first node when writing .dat: 1 or 0")
	addProgressFlag(cmd, &o.out)
	_ = cmd.RegisterFlagCompletionFunc("format", completeFormats)
	addInputFlags(cmd, &o.in)
	return cmd
}

func runJoin(ctx context.Context, s *streams, o joinOptions, outerPath, innerPath string) error {
	if o.limit < 1 {
		return usageErrorf("--limit must be at least 1, not %d", o.limit)
	}
	outer, err := readJoinInput(s, outerPath, o.in)
	if err != nil {
		return err
	}
	inner, err := readJoinInput(s, innerPath, o.in)
	if err != nil {
		return err
	}
	x, err := joinNode(s, outer, o.at, displayName(outerPath))
	if err != nil {
		return err
	}
	j, err := construct.JoinContext(ctx, outer, inner, x, o.limit)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var le *construct.JoinLimitError
		if errors.As(err, &le) {
			return usageErrorf("join: the join has %s quorums, more than --limit %d: raise --limit to list them all, or join smaller systems", le.Count, o.limit)
		}
		return usageErrorf("%s", construct.Describe(err, "", nil))
	}
	return o.out.writeVerified(ctx, s, "join", set.System{Family: j})
}

// readJoinInput reads a coterie or k-arbiter; an (h,k)-arbiter is refused.
func readJoinInput(s *streams, path string, o inputOptions) (*set.Family, error) {
	sys, err := readSystem(s, path, o)
	if err != nil {
		return nil, err
	}
	if sys.HK != nil {
		return nil, asInputError(displayName(path), 0, "an (h,k)-arbiter: the join takes coteries and k-arbiters")
	}
	return sys.Family, nil
}

// joinNode resolves --at: a number is a node number 1..n, anything else a
// label. A number that is also another node's label gets a note, since the
// labels of a joined system are often numbers.
func joinNode(s *streams, f *set.Family, at, name string) (int, error) {
	if at == "" {
		return 0, usageErrorf("--at needs a node of %s: a number 1..%d or a label", name, f.N)
	}
	byLabel := -1
	for i, l := range f.Labels {
		if l == at {
			if byLabel >= 0 {
				return 0, usageErrorf("--at %s: nodes %d and %d of %s are both labelled %q; give the node number", at, byLabel+1, i+1, name, at)
			}
			byLabel = i
		}
	}
	if v, err := strconv.Atoi(at); err == nil {
		if v < 1 || v > f.N {
			return 0, usageErrorf("--at %d is not a node of %s, whose nodes are 1..%d", v, name, f.N)
		}
		if byLabel >= 0 && byLabel != v-1 {
			fmt.Fprintf(s.err, "coterie: note: --at %d is node %d (labelled %q); node %d is the one labelled %q\n",
				v, v, f.Label(v-1), byLabel+1, at)
		}
		return v - 1, nil
	}
	if byLabel < 0 {
		return 0, usageErrorf("--at %s: no node of %s is labelled %q; give a node number 1..%d or one of its labels", at, name, at, f.N)
	}
	return byLabel, nil
}
