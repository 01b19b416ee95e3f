package systems

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// ErrNotZooKeeper is wrapped by [ZooKeeperOf] and [WriteZooKeeper] when no
// ZooKeeper configuration has the system's quorums.
var ErrNotZooKeeper = errors.New("not a system ZooKeeper can express")

// zkWriteLimit bounds the minimal quorums ZooKeeperOf lists to find and
// check a configuration.
const zkWriteLimit = 1 << 16

// ZooKeeperOf returns a ZooKeeper configuration whose quorums are exactly
// f's (a coterie: K = 1), or an error wrapping [ErrNotZooKeeper] when there
// is none it can find. It tries, in order: the configuration f records
// (kind "zookeeper", as read from a ZooKeeper file), a majority (a
// threshold of ⌊n/2⌋+1), and a two-level hierarchy inferred from f: the
// groups are the classes of interchangeable nodes (swapping two nodes of a
// class maps the minimal quorums onto themselves), every weight 1, and the
// nodes in no minimal quorum in one extra group of weight 0. A candidate is
// kept only if its minimal quorums are f's, so what it returns is right
// whatever f's kind and params say. It lists at most 65536 minimal quorums
// and returns ctx's error when ctx ends first.
func ZooKeeperOf(ctx context.Context, f *set.Family) (*ZooKeeper, error) {
	if f.K != 1 || f.H != 0 {
		return nil, fmt.Errorf("systems: zookeeper: a %d-arbiter: %w (ZooKeeper's quorums form a coterie)", f.K, ErrNotZooKeeper)
	}
	n := f.N
	if n == 0 {
		return nil, fmt.Errorf("systems: zookeeper: no nodes: %w", ErrNotZooKeeper)
	}
	ids := zkIDsFromLabels(f.Labels, n)
	if sys, err := construct.Typed(f); err == nil {
		if t, ok := sys.(quorum.Thresholder); ok {
			if w := t.Threshold(); w != n/2+1 {
				return nil, fmt.Errorf("systems: zookeeper: every %d of %d nodes: %w (with equal weights its quorums are majorities, %d of %d)", w, n, ErrNotZooKeeper, n/2+1, n)
			}
			return &ZooKeeper{IDs: ids}, nil
		}
	}
	// An implicit family is checked on its quorums, listed by its
	// construction when there are few enough.
	g, err := construct.Explicit(ctx, f, zkWriteLimit)
	var le *construct.ListError
	switch {
	case errors.As(err, &le):
		return nil, fmt.Errorf("systems: zookeeper: an implicit %s family: %w (%v)", f.Kind, ErrNotZooKeeper, err)
	case err != nil:
		return nil, fmt.Errorf("systems: zookeeper: %w", err)
	}
	f = g
	for i := range f.Quorums {
		if f.Quorums[i].IsEmpty() {
			return nil, fmt.Errorf("systems: zookeeper: an empty quorum: %w", ErrNotZooKeeper)
		}
	}
	want := zkMinimalOf(f)
	if len(want.Quorums) == 0 {
		return nil, fmt.Errorf("systems: zookeeper: no quorums: %w", ErrNotZooKeeper)
	}
	if len(want.Quorums) > zkWriteLimit {
		return nil, fmt.Errorf("systems: zookeeper: more than %d minimal quorums to check: %w", zkWriteLimit, ErrNotZooKeeper)
	}
	var candidates []*ZooKeeper
	// The params a ZooKeeper configuration was read with, whatever the
	// file calls its kind: every candidate is checked on the quorums.
	if z, err := zkFromParams(f.Params, ids); err == nil {
		candidates = append(candidates, z)
	}
	candidates = append(candidates, &ZooKeeper{IDs: ids})
	if z, ok := zkWeighted(f.Params, ids); ok {
		candidates = append(candidates, z)
	}
	if z, ok := zkInfer(ctx, want, ids); ok {
		candidates = append(candidates, z)
	}
	for _, z := range candidates {
		same, err := zkSameRule(ctx, want, z.Has)
		if err != nil {
			return nil, err
		}
		if same {
			return z, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("systems: zookeeper: %w: neither a majority nor majorities of weight in a majority of groups give its %d minimal quorums", ErrNotZooKeeper, len(want.Quorums))
}

// WriteZooKeeper writes f as the server, group and weight lines of a
// ZooKeeper configuration (for a zoo.cfg, or its dynamic configuration
// file), found by [ZooKeeperOf]. Server ids come from labels "server.N"
// when every node has one, else they are 1..n; hosts are placeholders
// zkN to replace.
func WriteZooKeeper(ctx context.Context, w io.Writer, f *set.Family) error {
	z, err := ZooKeeperOf(ctx, f)
	if err != nil {
		return err
	}
	return z.Write(w)
}

// Write writes z's server, group and weight lines.
func (z *ZooKeeper) Write(w io.Writer) error {
	var b strings.Builder
	if z.Hierarchical() {
		groups := "groups"
		if len(z.Groups) == 1 {
			groups = "group"
		}
		fmt.Fprintf(&b, "# A ZooKeeper ensemble of %d participants in %d %s (QuorumHierarchical):\n", len(z.IDs), len(z.Groups), groups)
		b.WriteString("# a quorum is a majority of weight in a majority of the groups of non-zero weight.\n")
	} else {
		fmt.Fprintf(&b, "# A ZooKeeper ensemble of %d participants (QuorumMaj): a quorum is any %d of them.\n", len(z.IDs), len(z.IDs)/2+1)
	}
	b.WriteString("# Replace each host zkN by the server's address; keep the other lines.\n")
	for _, id := range z.IDs {
		fmt.Fprintf(&b, "server.%d=zk%d:2888:3888:participant\n", id, id)
	}
	if z.Hierarchical() {
		for gi, g := range z.Groups {
			ids := make([]string, len(g))
			for j, v := range g {
				ids[j] = strconv.FormatInt(z.IDs[v], 10)
			}
			fmt.Fprintf(&b, "group.%d=%s\n", z.GroupIDs[gi], strings.Join(ids, ":"))
		}
		for v, id := range z.IDs {
			fmt.Fprintf(&b, "weight.%d=%d\n", id, z.Weights[v])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// zkIDsFromLabels reads server ids from labels "server.N", all distinct;
// otherwise the ids are 1..n.
func zkIDsFromLabels(labels []string, n int) []int64 {
	ids := make([]int64, n)
	seen := map[int64]bool{}
	ok := len(labels) == n
	for i := 0; ok && i < n; i++ {
		id, err := zkID(labels[i], "server.")
		if err != nil || seen[id] {
			ok = false
			break
		}
		ids[i], seen[id] = id, true
	}
	if !ok {
		for i := range ids {
			ids[i] = int64(i + 1)
		}
	}
	return ids
}

// zkFromParams rebuilds the configuration recorded in a zookeeper family's
// params (see [ZooKeeper.Rule]).
func zkFromParams(p set.Params, ids []int64) (*ZooKeeper, error) {
	n := len(ids)
	rule, _ := p["rule"].(string)
	switch rule {
	case "majority":
		return &ZooKeeper{IDs: ids}, nil
	case "hierarchical":
	default:
		return nil, fmt.Errorf("rule %q", rule)
	}
	gs, _ := p["groups"].(string)
	ws, _ := p["weights"].(string)
	z := &ZooKeeper{IDs: ids, Weights: make([]int64, n)}
	seen := make([]bool, n)
	for gi, g := range strings.Split(gs, "/") {
		var members []int
		for _, f := range strings.Split(g, ":") {
			v, err := strconv.Atoi(f)
			if err != nil || v < 1 || v > n || seen[v-1] {
				return nil, fmt.Errorf("groups %q", gs)
			}
			seen[v-1] = true
			members = append(members, v-1)
		}
		z.Groups = append(z.Groups, members)
		z.GroupIDs = append(z.GroupIDs, int64(gi+1))
	}
	wf := strings.Split(ws, ",")
	if len(wf) != n {
		return nil, fmt.Errorf("weights %q", ws)
	}
	for v, f := range wf {
		w, err := strconv.ParseInt(f, 10, 64)
		if err != nil || w < 0 {
			return nil, fmt.Errorf("weights %q", ws)
		}
		z.Weights[v] = w
	}
	if slices.Contains(seen, false) {
		return nil, fmt.Errorf("groups %q leave a node out", gs)
	}
	return z, nil
}

// zkWeighted is the candidate of a family that records one weight per
// node (weighted voting): one group holding every node with those
// weights, whose quorums are the majorities of weight. Like every
// candidate, it is used only if its quorums are the family's.
func zkWeighted(p set.Params, ids []int64) (*ZooKeeper, bool) {
	ws, _ := p["weights"].(string)
	fields := strings.Split(ws, ",")
	if ws == "" || len(fields) != len(ids) {
		return nil, false
	}
	z := &ZooKeeper{IDs: ids, Weights: make([]int64, len(ids)), Groups: [][]int{make([]int, len(ids))}, GroupIDs: []int64{1}}
	for v, f := range fields {
		w, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || w < 0 {
			return nil, false
		}
		z.Weights[v], z.Groups[0][v] = w, v
	}
	return z, true
}

// zkInfer guesses a two-level hierarchy with weights 1 from the minimal
// quorums m: the groups are the classes of interchangeable nodes, and the
// nodes in no minimal quorum go into a group of weight 0.
func zkInfer(ctx context.Context, m *set.Family, ids []int64) (*ZooKeeper, bool) {
	n := m.N
	if int64(n)*int64(n)*int64(len(m.Quorums)) > 1<<26 {
		return nil, false
	}
	index := map[string]bool{}
	used := set.New(n)
	for i := range m.Quorums {
		index[m.Quorums[i].String()] = true
		used.Union(used, &m.Quorums[i])
	}
	// swaps reports whether exchanging u and v maps m onto itself.
	swaps := func(u, v int) bool {
		for i := range m.Quorums {
			q := &m.Quorums[i]
			hu, hv := q.Has(u), q.Has(v)
			if hu == hv {
				continue
			}
			s := q.Clone()
			if hu {
				s.Remove(u)
				s.Add(v)
			} else {
				s.Remove(v)
				s.Add(u)
			}
			if !index[s.String()] {
				return false
			}
		}
		return true
	}
	var classes [][]int
	var dummies []int
	for v := range n {
		if ctx.Err() != nil {
			return nil, false
		}
		if !used.Has(v) {
			dummies = append(dummies, v)
			continue
		}
		placed := false
		for c := range classes {
			if swaps(classes[c][0], v) {
				classes[c] = append(classes[c], v)
				placed = true
				break
			}
		}
		if !placed {
			classes = append(classes, []int{v})
		}
	}
	z := &ZooKeeper{IDs: ids, Weights: make([]int64, n)}
	for c, members := range classes {
		z.Groups = append(z.Groups, members)
		z.GroupIDs = append(z.GroupIDs, int64(c+1))
		for _, v := range members {
			z.Weights[v] = 1
		}
	}
	if dummies != nil {
		z.Groups = append(z.Groups, dummies)
		z.GroupIDs = append(z.GroupIDs, int64(len(classes)+1))
	}
	return z, true
}

// zkMinimalOf returns the quorums of f that hold no other one, in
// lexicographic order of their sorted members, as [quorum.Minimal] lists
// them.
func zkMinimalOf(f *set.Family) *set.Family {
	qs := slices.Clone(f.Quorums)
	slices.SortFunc(qs, func(a, b set.Set) int {
		if d := a.Len() - b.Len(); d != 0 {
			return d
		}
		return set.Compare(&a, &b)
	})
	m := set.NewFamily(f.N)
	var kept []*set.Set
	for i := range qs {
		q := &qs[i]
		minimal := true
		for _, k := range kept {
			if set.Subset(k, q) {
				minimal = false
				break
			}
		}
		if minimal {
			kept = append(kept, q)
		}
	}
	slices.SortFunc(kept, set.Compare)
	for _, q := range kept {
		m.Add(q, set.NoOwner)
	}
	return m
}

// zkTransversalLimit bounds the minimal transversals zkSameRule visits.
const zkTransversalLimit = 1 << 18

// zkSameRule reports whether the monotone predicate has holds exactly on
// the supersets of want's quorums (want minimal). Every quorum of want
// must be a minimal set of has, and no set that misses every quorum of
// want may satisfy has: the largest such sets are the complements of
// want's minimal transversals, so those are all it checks.
func zkSameRule(ctx context.Context, want *set.Family, has func(*set.Set) bool) (bool, error) {
	for i := range want.Quorums {
		q := want.Quorums[i].Clone()
		if !has(q) || !minimalIn(q, has) {
			return false, nil
		}
	}
	same, seen := true, 0
	rest := set.New(want.N)
	err := domination.Transversals(ctx, want, func(t *set.Set) bool {
		if seen++; seen > zkTransversalLimit {
			return false
		}
		rest.Complement(t, want.N)
		if has(rest) {
			same = false
		}
		return same
	})
	if err != nil {
		return false, err
	}
	if seen > zkTransversalLimit {
		return false, fmt.Errorf("systems: zookeeper: more than %d blocking sets to check: %w", zkTransversalLimit, ErrNotZooKeeper)
	}
	return same, nil
}

// minimalIn reports whether no member of q can be dropped with has still
// true.
func minimalIn(q *set.Set, has func(*set.Set) bool) bool {
	for _, v := range q.Elements() {
		q.Remove(v)
		ok := has(q)
		q.Add(v)
		if ok {
			return false
		}
	}
	return true
}

// zkSameQuorums reports whether two families of minimal quorums, both in
// lexicographic order, are equal.
func zkSameQuorums(a, b *set.Family) bool {
	if len(a.Quorums) != len(b.Quorums) {
		return false
	}
	for i := range a.Quorums {
		if !set.Equal(&a.Quorums[i], &b.Quorums[i]) {
			return false
		}
	}
	return true
}
