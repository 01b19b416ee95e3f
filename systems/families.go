package systems

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Families lists the configuration's minimal read and write quorums (see
// [quorum.Minimal]), labelled, at most limit on each side; for a
// configuration with one kind of quorum both are the same family. It wraps
// [set.ErrTooMany] past the limit and returns ctx's error when ctx ends
// first.
func (c *Config) Families(ctx context.Context, limit int) (reads, writes *set.Family, err error) {
	if reads, err = sideFamily(ctx, c.Reads, "read", limit); err != nil {
		return nil, nil, err
	}
	if c.IsCoterie() {
		return reads, reads, nil
	}
	if writes, err = sideFamily(ctx, c.Writes, "write", limit); err != nil {
		return nil, nil, err
	}
	return reads, writes, nil
}

func sideFamily(ctx context.Context, r *quorum.Rule, side string, limit int) (*set.Family, error) {
	f, err := r.Family(ctx, limit)
	if errors.Is(err, quorum.ErrNoQuorum) {
		return nil, fmt.Errorf("systems: no set of nodes holds a %s quorum", side)
	}
	if err != nil {
		return nil, err
	}
	f.Kind, f.Params = "", nil // a rule's kind names no construction
	return f, nil
}
