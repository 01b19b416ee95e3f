package systems

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// DomainLoss is what the loss of whole failure domains does to a
// configuration, at its outermost level (the datacentres).
type DomainLoss struct {
	// Domains are the outermost domains, in the order of their first
	// node.
	Domains []string
	// Reads[i] and Writes[i] report whether reads (writes) still have a
	// quorum when every node of Domains[i] is down and every other node
	// up.
	Reads, Writes []bool
	// ReadResilience is the largest number of domains whose loss, any
	// of them, leaves a read quorum; ReadKill a smallest set of domains
	// whose loss leaves none. The same for writes.
	ReadResilience, WriteResilience int
	ReadKill, WriteKill             []string
}

// maxDomains bounds the domains whose subsets are tried.
const maxDomains = 20

// DomainFailures returns what losing whole outermost domains does to c,
// trying every set of domains (2^domains tries, at most 2^20); nil when c
// names no domains.
func (c *Config) DomainFailures(ctx context.Context) (*DomainLoss, error) {
	if c.Domains == nil {
		return nil, nil
	}
	d := &DomainLoss{}
	index := map[string]int{}
	of := make([]int, len(c.Domains))
	for v, path := range c.Domains {
		top, _, _ := strings.Cut(path, "/")
		i, ok := index[top]
		if !ok {
			i = len(d.Domains)
			index[top] = i
			d.Domains = append(d.Domains, top)
		}
		of[v] = i
	}
	k := len(d.Domains)
	if k > maxDomains {
		return nil, fmt.Errorf("systems: %d domains: at most %d are tried", k, maxDomains)
	}
	n := c.N()
	up := func(down uint32) *set.Set {
		live := set.New(n)
		for v := range n {
			if down>>of[v]&1 == 0 {
				live.Add(v)
			}
		}
		return live
	}
	for i := range k {
		live := up(1 << i)
		d.Reads = append(d.Reads, c.Reads.Has(live))
		d.Writes = append(d.Writes, c.Writes.Has(live))
	}
	kill := func(r *quorum.Rule) (int, []string, error) {
		best := uint32(1<<k - 1)
		for down := uint32(0); down < 1<<k; down++ {
			if down&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return 0, nil, err
				}
			}
			if bits.OnesCount32(down) < bits.OnesCount32(best) && !r.Has(up(down)) {
				best = down
			}
		}
		var names []string
		for i := range k {
			if best>>i&1 == 1 {
				names = append(names, d.Domains[i])
			}
		}
		return len(names) - 1, names, nil
	}
	var err error
	if d.ReadResilience, d.ReadKill, err = kill(c.Reads); err != nil {
		return nil, err
	}
	if d.WriteResilience, d.WriteKill, err = kill(c.Writes); err != nil {
		return nil, err
	}
	return d, nil
}
