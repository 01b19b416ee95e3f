package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

func newMergeCmd(s *streams) *cobra.Command {
	var (
		asJSON bool
		output string
	)
	cmd := &cobra.Command{
		Use:   "merge PART...",
		Short: "Put together the partial results of a run split with --shard",
		Long: `Merge the partial results that the shards of a split run wrote (--shard I/N),
and print the whole result exactly as the unsplit command would have.

The parts must be complete and of one computation: every shard 1..N exactly
once, the same input (its SHA-256 is in every part), the same command and the
same options; anything else is refused with a message that names the part.
With --json the result is printed as the command's --json report, whatever
format the shards were asked for.

Commands that split: availability (exact polynomials by BDD, in pieces by
the values of a few nodes, named in each part; the lines of PG(2,8) by the
pieces of the plane sweep; Monte Carlo estimates with --method estimate, in shares of the
samples); transversals --count (the pieces of the search); simulate --explore
(the states under each way to make the requests, merged into one state
graph); domination --smallest (the cubes of the candidate sizes of a
smallest witness).
The project's deploy/ folder has a Kubernetes Indexed Job and a Slurm array
that run the shards and the merge.`,
		Example: `  for i in 1 2 3; do coterie availability big.json --shard $i/3 > part-$i.json; done
  coterie merge part-*.json
  coterie merge part-*.json --json -o result.json`,
		Args: needFiles("the PART files that --shard wrote", 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMergeTo(cmd.Context(), s, args, asJSON, output)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged result as JSON")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the merged result to `FILE` (replaced only when the merge succeeds)")
	return cmd
}

// runMergeTo merges into the file output ("" or "-": standard output).
// The file is written only once the whole merge has succeeded, so a
// refused merge leaves an old result untouched.
func runMergeTo(ctx context.Context, s *streams, paths []string, asJSON bool, output string) error {
	if output == "" || output == "-" {
		return runMerge(ctx, s, paths, asJSON)
	}
	var buf bytes.Buffer
	to := *s
	to.out, to.outTerminal = &buf, false
	if err := runMerge(ctx, &to, paths, asJSON); err != nil {
		return err
	}
	return writeOutput(s, output, func(w io.Writer) error {
		_, err := buf.WriteTo(w)
		return err
	})
}

func runMerge(ctx context.Context, s *streams, paths []string, asJSON bool) error {
	parts := make([]*shard.Part, len(paths))
	names := make([]string, len(paths))
	for i, path := range paths {
		names[i] = displayName(path)
		data, err := os.ReadFile(path)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return asInputError(names[i], 0, "cannot read: "+err.Error())
		}
		p, err := shard.Read(data)
		if err != nil {
			return asInputError(names[i], 0, err.Error())
		}
		parts[i] = p
	}
	if err := alignPresentation(parts, names); err != nil {
		return usageErrorf("merge: %v", err)
	}
	parts, err := shard.Check(parts, names)
	if err != nil {
		return usageErrorf("merge: %v", err)
	}
	switch parts[0].Kind {
	case partfile.KindAvailability:
		return mergeAvailability(ctx, s, parts, asJSON)
	case partfile.KindTransversals:
		return mergeTransversals(s, parts, asJSON)
	case partfile.KindExplore:
		return mergeExplore(ctx, s, parts, asJSON)
	case partfile.KindSmallest:
		return mergeSmallest(ctx, s, parts, asJSON)
	}
	return usageErrorf("merge: %s: partial results of %q cannot be merged by this version", names[0], parts[0].Kind)
}

// presentationOptions are the options of a part that change how the
// result is printed, never the result: the input's name as given, and the
// output format. Parts of one input (the same SHA-256) that differ only in
// them merge, printed as the first part asks.
var presentationOptions = map[string]bool{"name": true, "format": true, "json": true}

// alignPresentation compares the options of parts of one kind and input
// (shard.Align): a difference that matters is refused, naming the option
// by its flag and both values; a difference of presentation only is
// dropped, the first part's kept.
func alignPresentation(parts []*shard.Part, names []string) error {
	err := shard.Align(parts, names, func(k string) bool { return presentationOptions[k] })
	var oe *shard.OptionsError
	if errors.As(err, &oe) {
		return fmt.Errorf("%s (shard %s) was run with other options than %s (shard %s): %s %s, not %s",
			oe.Name, oe.Shard, oe.FirstName, oe.FirstShard, optionFlag(oe.Key), oe.Got, oe.Want)
	}
	return err
}

// optionFlag names a part's option by its flag: max_states is
// --max-states.
func optionFlag(key string) string {
	switch key {
	case "points":
		return "--p"
	case "points_given":
		return "--p/--range given"
	}
	return "--" + strings.ReplaceAll(key, "_", "-")
}
