package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
)

// version is the release this binary was built from; the Makefile sets it
// with -ldflags "-X main.version=...".
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func newRootCmd(s *streams) *cobra.Command {
	var timeout time.Duration
	var cancel context.CancelFunc
	root := &cobra.Command{
		Use:   "coterie",
		Short: "Construct, verify and analyse quorum systems",
		Long: `coterie builds quorum systems — coteries, k-arbiters and (h,k)-arbiters — from the
papers that define them (finite projective planes, Maekawa's sets and grids,
billiard quorums, majority, uniform and cube arbiters, Kuo's join), proves them
safe or shows a witness that they are not, decides nondomination, computes
availability exactly, and converts between JSON, text, CSV and .dat files.

Nodes are numbered 1..n in every file and report. Exit status: 0 success,
1 a checked property fails (verify), 2 usage or input error.`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if timeout < 0 {
				return usageErrorf("--timeout must not be negative")
			}
			if timeout > 0 {
				var ctx context.Context
				ctx, cancel = context.WithTimeout(cmd.Context(), timeout)
				cmd.SetContext(ctx)
			}
			return nil
		},
		PersistentPostRun: func(*cobra.Command, []string) {
			if cancel != nil {
				cancel()
			}
		},
	}
	root.PersistentFlags().DurationVar(&timeout, "timeout", 0, "stop long computations after this long (e.g. 30s, 5m; 0 = no limit)")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageErrorf("%v (see 'coterie %s --help')", err, cmd.Name())
	})
	root.AddCommand(
		newGenerateCmd(s),
		newConvertCmd(s),
		newInfoCmd(s),
		newCompareCmd(s),
		newJoinCmd(s),
		newDegenerateCmd(s),
		newVerifyCmd(s),
		newDominationCmd(s),
		newTransversalsCmd(s),
		newSimulateCmd(s),
		newAvailabilityCmd(s),
		newMergeCmd(s),
	)
	return root
}

// usageErrorf returns a usage error: exit status 2.
func usageErrorf(format string, args ...any) error {
	return &codeError{code: exitError, err: fmt.Errorf(format, args...)}
}
