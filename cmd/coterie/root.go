package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
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
	bi, _ := debug.ReadBuildInfo()
	return buildVersion(bi)
}

// buildVersion is the version recorded in the build information: the
// module version for `go install …@version`, else the VCS revision of a
// build from a checkout (marked -dirty when it had local changes), else
// "dev".
func buildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

// runState is what run needs to know after the command: the --timeout
// context, if one was set.
type runState struct {
	timeout context.Context
}

func newRoot(s *streams, st *runState, args []string) *cobra.Command {
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

Nodes are numbered 1..n in every file and report.

Exit status:
  0    success
  1    a checked property fails (verify; join, degenerate and
       domination --make-nd when what they built fails its check)
  2    usage or input error
  124  stopped at the --timeout limit
  130  interrupted (SIGINT, Ctrl-C); 143 for SIGTERM
After 124, 130 or 143 a command prints what it proved so far, marked
partial, where it has something. A second Ctrl-C ends the process at once.
Output files (-o) are replaced only when complete: an error or interrupt
leaves the old file as it was.`,
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
				st.timeout = ctx
				s.watchStop(ctx)
			}
			s.cmdCtx = cmd.Context()
			return nil
		},
		PersistentPostRun: func(*cobra.Command, []string) {
			if cancel != nil {
				cancel()
			}
		},
	}
	root.PersistentFlags().DurationVar(&timeout, "timeout", 0, "stop long computations after this long (e.g. 30s, 5m; 0 = no limit)")
	addMemoryFlag(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageErrorf("%s (see '%s --help')", flagErrorText(err), cmd.CommandPath())
	})
	only := invoked(args)
	for _, c := range subcommands {
		if only == "" || c.name == only {
			root.AddCommand(c.make(s))
		}
	}
	return root
}

// subcommands are the commands under the root, in the order of its help.
var subcommands = []struct {
	name string
	make func(*streams) *cobra.Command
}{
	{"generate", newGenerateCmd},
	{"convert", newConvertCmd},
	{"info", newInfoCmd},
	{"compare", newCompareCmd},
	{"join", newJoinCmd},
	{"degenerate", newDegenerateCmd},
	{"verify", newVerifyCmd},
	{"check-config", newCheckConfigCmd},
	{"domination", newDominationCmd},
	{"transversals", newTransversalsCmd},
	{"simulate", newSimulateCmd},
	{"availability", newAvailabilityCmd},
	{"draw", newDrawCmd},
	{"report", newReportCmd},
	{"serve", newServeCmd},
	{"strategy", newStrategyCmd},
	{"search", newSearchCmd},
	{"plot", newPlotCmd},
	{"quorums", newQuorumsCmd},
	{"merge", newMergeCmd},
}

// invoked returns the subcommand the command line args runs, or "" when
// it runs none of them (the root's help, help, completion, a name that is
// not a command): newRoot then builds that one command alone, sparing a
// run the others' flags (a tenth of a small command's start-up). It reads
// args as cobra does to find the command: the root has no boolean flags
// then (help and version come later), so "--flag" and "-f" without "="
// take the next argument as their value.
func invoked(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ""
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "="),
			len(a) == 2 && a[0] == '-' && a[1] != '=':
			i++ // the flag's value
		case strings.HasPrefix(a, "-") || a == "":
		default:
			for _, c := range subcommands {
				if c.name == a {
					return a
				}
			}
			return ""
		}
	}
	return ""
}

// usageErrorf returns a usage error: exit status 2.
func usageErrorf(format string, args ...any) error {
	return &codeError{code: exitError, err: fmt.Errorf(format, args...)}
}
