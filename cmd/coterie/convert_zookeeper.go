package main

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/systems"
)

// addConvertToFlag adds convert's --to, which writes a system as a
// replicated system's configuration instead of a quorum file.
func addConvertToFlag(cmd *cobra.Command, to *string) {
	cmd.Flags().StringVar(to, "to", "", "write the system as `SYSTEM`'s configuration instead of a quorum file: zookeeper (server, group and weight lines)")
	_ = cmd.RegisterFlagCompletionFunc("to", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"zookeeper"}, cobra.ShellCompDirectiveNoFileComp
	})
}

// runConvertTo writes the system in args as the configuration of --to:
// ZooKeeper's server, group and weight lines when ZooKeeper can express
// the system (a majority, or majorities of weight in a majority of
// groups), refusing it (exit 2) otherwise.
func runConvertTo(ctx context.Context, s *streams, cmd *cobra.Command, to string, in inputOptions, out outputOptions, args []string) error {
	if to != "zookeeper" {
		return usageErrorf("--to %s: want zookeeper", to)
	}
	for _, flag := range []string{"format", "reads", "writes", "nodes", "enumerate", "output-base"} {
		if cmd.Flags().Changed(flag) {
			return usageErrorf("--to zookeeper writes a ZooKeeper configuration: --%s does not apply", flag)
		}
	}
	if len(args) != 1 {
		return usageErrorf("--to zookeeper converts one quorum file")
	}
	sys, err := readSystem(s, args[0], in)
	if err != nil {
		return err
	}
	if sys.HK != nil {
		return usageErrorf("%s: an (h,k)-arbiter cannot be written as ZooKeeper's configuration: its quorums form a coterie", displayName(args[0]))
	}
	f := sys.Family
	if construct.Held(f) {
		if f, err = construct.Materialize(f, 1<<16); err != nil {
			return usageErrorf("%s: cannot be written as ZooKeeper's configuration: %v", displayName(args[0]), err)
		}
	}
	z, err := systems.ZooKeeperOf(ctx, f)
	if errors.Is(err, systems.ErrNotZooKeeper) {
		return usageErrorf("%s: %s", displayName(args[0]), strings.TrimPrefix(err.Error(), "systems: zookeeper: "))
	}
	if err != nil {
		return err
	}
	return writeOutput(s, out.path, z.Write)
}
