package verify

import (
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// maxIncidenceBytes bounds the node → quorum incidence table the search
// builds (n rows of m bits). Past it the search refuses rather than eat the
// machine's memory; the pairwise check falls back to a direct scan.
const maxIncidenceBytes = 1 << 30

// buildAvoiders builds p's table of the quorums avoiding each node, within
// maxIncidenceBytes.
func buildAvoiders(p *set.Packed) error {
	if err := p.BuildAvoiders(maxIncidenceBytes); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}
