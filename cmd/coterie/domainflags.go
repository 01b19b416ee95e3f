package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// addDomainsFlag adds --domains, the probabilities of the failure domains
// that the nodes file's domain column names.
func addDomainsFlag(cmd *cobra.Command, o *rwOptions) {
	cmd.Flags().StringVar(&o.domains, "domains", "", "CSV `FILE` of failure domains: domain,p (the probability that the domain is up; a domain not listed is always up); the domains are those of the domain column of --nodes")
}

// addDownFlag adds --down, the parts of the system to analyse as failed.
func addDownFlag(cmd *cobra.Command, o *rwOptions) {
	cmd.Flags().StringVar(&o.down, "down", "", "analyse the system with these parts failed: `NODES_OR_DOMAINS`, comma-separated node ids, node labels or domain paths (eu-west/az-b)")
}

// rwLoaded is a read-write system as read, with its failure domains and
// what --down failed.
type rwLoaded struct {
	sys  *rw.System // with --down applied
	full *rw.System // before --down
	tree *domain.Tree
	// down holds the failed nodes (nil without --down); downNames the
	// parts as --down named them.
	down      *set.Set
	downNames []string
}

// loadRW reads the system of a read-write command (see [loadRWRows]), its
// failure domains, and applies --down: the system left when those parts
// fail. No surviving read or write quorum exits 1.
func loadRW(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string) (*rw.System, error) {
	ld, err := loadRWDomains(ctx, s, o, in, args)
	if err != nil {
		return nil, err
	}
	return ld.sys, nil
}

// loadRWDomains is [loadRW] that also returns the domains and the failed
// parts.
func loadRWDomains(ctx context.Context, s *streams, o rwOptions, in inputOptions, args []string) (*rwLoaded, error) {
	sys, rows, src, err := loadRWRows(ctx, s, o, in, args)
	if err != nil {
		return nil, err
	}
	ld := &rwLoaded{sys: sys, full: sys}
	if ld.tree, err = domainTree(ctx, s, o, in, sys, rows, src); err != nil {
		return nil, err
	}
	if o.down == "" {
		return ld, nil
	}
	if ld.down, ld.downNames, err = parseDown(o.down, sys, ld.tree); err != nil {
		return nil, err
	}
	ld.sys, err = sys.Without(ld.down)
	if errors.Is(err, rw.ErrNoQuorum) {
		side := "read"
		if sys.Reads.Expr.Without(ld.down) != nil {
			side = "write"
		}
		return nil, &codeError{code: exitFailed, err: fmt.Errorf("with %s down, no %s quorum survives", strings.Join(ld.downNames, ", "), side)}
	}
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return ld, nil
}

// domainTree builds the failure domains from the nodes file's domain
// column and --domains; nil when there are none.
func domainTree(ctx context.Context, s *streams, o rwOptions, in inputOptions, sys *rw.System, rows []format.NodeAttrs, src *rwSource) (*domain.Tree, error) {
	all := domainRows(src.fileName, src.fileNodes, nil)
	all = domainRows(displayName(o.nodes), rows, all)
	labels := rw.OwnLabels(sys.Nodes)
	t, err := domain.FromRows(sys.N, all, labels)
	if err != nil {
		return nil, domainRowError(err, displayName(o.nodes))
	}
	if t == nil {
		if len(src.fileDomains) > 0 {
			return nil, asInputError(src.fileName, src.fileDomains[0].Line, "domains given, but no node has a domain")
		}
		if o.domains != "" {
			return nil, usageErrorf("--domains: the nodes have no domains (give --nodes with a domain column)")
		}
		return nil, nil
	}
	for _, dp := range src.fileDomains {
		d, ok := t.Lookup(dp.Domain)
		if !ok {
			return nil, asInputError(src.fileName, dp.Line, fmt.Sprintf("domain %q is no node's domain nor above one", dp.Domain))
		}
		if err := t.SetP(d, dp.P); err != nil {
			return nil, asInputError(src.fileName, dp.Line, err.Error())
		}
	}
	if o.domains != "" {
		data, err := readData(ctx, s, o.domains, in)
		if err != nil {
			return nil, err
		}
		return t, readDomainsCSV(displayName(o.domains), data, t)
	}
	return t, nil
}

// domainRows appends to rows the domain rows of the nodes file file.
func domainRows(file string, nodes []format.NodeAttrs, rows []domain.Row) []domain.Row {
	for _, r := range nodes {
		rows = append(rows, domain.Row{File: file, Line: r.Line, Node: r.Node, Domain: r.Domain, Levels: r.DomainLevels})
	}
	return rows
}

// domainRowError is an error of [domain.FromRows] as an input error;
// nodesName names the file of a node without a row.
func domainRowError(err error, nodesName string) error {
	var re *domain.RowError
	if !errors.As(err, &re) {
		return err
	}
	if re.File == "" {
		re.File = nodesName
	}
	return asInputError(re.File, re.Line, re.Msg)
}

// readDomainsCSV reads the --domains file name, holding data, into t.
func readDomainsCSV(name string, data []byte, t *domain.Tree) error {
	err := domain.ReadCSV(data, t)
	var le *domain.LineError
	if errors.As(err, &le) {
		return asInputError(name, le.Line, le.Msg)
	}
	if err != nil {
		return asInputError(name, 0, err.Error())
	}
	return nil
}

// parseDown reads --down: node ids (1..n), node labels and domain paths.
func parseDown(spec string, sys *rw.System, t *domain.Tree) (*set.Set, []string, error) {
	labels := rw.OwnLabels(sys.Nodes)
	dead, names, err := domain.ParseDown(spec, sys.N, labels, t)
	if err != nil {
		return nil, nil, usageErrorf("--down: %v", err)
	}
	return dead, names, nil
}
