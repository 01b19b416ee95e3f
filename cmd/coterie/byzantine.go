package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// byzantineOptions are verify's --byzantine B --masking|--dissemination.
type byzantineOptions struct {
	b             int
	masking       bool
	dissemination bool
	given         func() bool
}

func addByzantineFlags(cmd *cobra.Command, o *byzantineOptions) {
	cmd.Flags().IntVar(&o.b, "byzantine", 0, "also check a Byzantine quorum system tolerating `B` faulty nodes (with --masking or --dissemination)")
	cmd.Flags().BoolVar(&o.masking, "masking", false, "with --byzantine: every two quorums share ≥ 2B+1 nodes (Malkhi–Reiter b-masking)")
	cmd.Flags().BoolVar(&o.dissemination, "dissemination", false, "with --byzantine: every two quorums share ≥ B+1 nodes (b-dissemination)")
	o.given = func() bool { return cmd.Flags().Changed("byzantine") }
}

// check adds the checks byzantine_intersection and byzantine_availability
// to rep when --byzantine was given.
func (o byzantineOptions) check(ctx context.Context, sys set.System, rep *verify.Report) error {
	if o.given == nil || !o.given() {
		if o.masking || o.dissemination {
			return usageErrorf("--masking and --dissemination go with --byzantine B")
		}
		return nil
	}
	switch {
	case o.b < 0:
		return usageErrorf("--byzantine must be at least 0, not %d", o.b)
	case o.masking == o.dissemination:
		return usageErrorf("--byzantine needs exactly one of --masking and --dissemination")
	case sys.HK != nil || sys.Family.K != 1:
		return usageErrorf("--byzantine checks a quorum system (k = 1), not a k-arbiter")
	}
	cs, err := verify.Byzantine(ctx, sys.Family, o.b, o.masking)
	if err != nil {
		return &codeError{code: exitError, err: err}
	}
	rep.AddChecks(cs...)
	return nil
}
