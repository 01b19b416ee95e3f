package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// sparseCommands are the commands that take a family held as node lists
// (node ids too wide for a bit set per quorum) as it is; the flags after
// each name make it need bit sets after all.
var sparseCommands = map[string][]string{
	"verify":  {"byzantine"},
	"convert": {"to"},
}

// sparseShare is the part of --max-memory the bit sets of a sparse family
// may take for a command that needs them.
const sparseShare = 2

// checkSparseInput hands a command that needs bit sets the quorums of a
// sparse family as bit sets when they fit in half the --max-memory budget,
// and refuses otherwise, saying what they would take and which commands
// take the lists as they are.
func checkSparseInput(cmd *cobra.Command, name string, sys *set.System) error {
	f := sys.Family
	if f == nil || !f.IsSparse() {
		return nil
	}
	what := "this command"
	if cmd != nil {
		what = cmd.Name()
		if flags, ok := sparseCommands[what]; ok && !slices.ContainsFunc(flags, cmd.Flags().Changed) {
			return nil
		}
	}
	need := f.Sparse.SetBytes()
	if budget := maxMemory(cmd); budget == 0 || need <= budget/sparseShare {
		f.Densify()
		return nil
	}
	return &codeError{code: exitError, err: &inputError{File: name, Msg: fmt.Sprintf(
		"%d quorums over node ids up to %d are held as node lists; %s needs them as bit sets, which would take %s, over half the memory budget (%s): verify and convert take the lists as they are; otherwise number the nodes 1..n with n as small as it can be, or allow more memory",
		f.Sparse.Len(), f.N, what, format.ByteSize(need), budgetHint(cmd))}}
}
