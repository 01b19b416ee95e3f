package domain

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Tree is a forest of failure domains over the nodes 0..N−1 and the
// domain of each node. Domains are numbered in the order they were added,
// a parent always before its children. The zero Tree is not usable: make
// one with [New].
type Tree struct {
	n        int
	paths    []string
	parent   []int
	depth    []int
	p        []*big.Rat // nil: always up
	children [][]int
	direct   [][]int // nodes whose innermost domain it is
	node     []int   // innermost domain of each node, −1 for none
	byPath   map[string]int
	names    []string // of the levels
}

// New returns a tree over n nodes with no domains.
func New(n int) *Tree {
	node := make([]int, n)
	for i := range node {
		node[i] = -1
	}
	return &Tree{n: n, node: node, byPath: map[string]int{}}
}

// ParsePath splits a domain path into its levels, outermost first. Each
// level must be non-empty, printable and free of spaces at either end;
// "a//b", "/a" and "a/" are errors.
func ParsePath(path string) ([]string, error) {
	if path == "" {
		return nil, errors.New("empty domain path")
	}
	parts := strings.Split(path, "/")
	for _, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("domain path %q has an empty level", path)
		}
		if strings.TrimSpace(p) != p {
			return nil, fmt.Errorf("domain path %q: level %q has spaces at an end", path, p)
		}
		for _, r := range p {
			if !unicode.IsPrint(r) || r == utf8Error {
				return nil, fmt.Errorf("domain path %s holds a control character", strconv.Quote(path))
			}
		}
	}
	return parts, nil
}

const utf8Error = '\uFFFD'

// N returns the number of nodes.
func (t *Tree) N() int { return t.n }

// Len returns the number of domains.
func (t *Tree) Len() int { return len(t.paths) }

// Empty reports whether the tree has no domain at all.
func (t *Tree) Empty() bool { return len(t.paths) == 0 }

// Add adds the domain named by path and every domain above it, and
// returns the domain's number.
func (t *Tree) Add(path string) (int, error) {
	parts, err := ParsePath(path)
	if err != nil {
		return 0, err
	}
	d := -1
	for i := range parts {
		pre := strings.Join(parts[:i+1], "/")
		if id, ok := t.byPath[pre]; ok {
			d = id
			continue
		}
		id := len(t.paths)
		t.paths = append(t.paths, pre)
		t.parent = append(t.parent, d)
		t.depth = append(t.depth, i+1)
		t.p = append(t.p, nil)
		t.children = append(t.children, nil)
		t.direct = append(t.direct, nil)
		t.byPath[pre] = id
		if d >= 0 {
			t.children[d] = append(t.children[d], id)
		}
		d = id
	}
	return d, nil
}

// Place puts node v (0-based) in the domain named by path, adding it if
// needed. A node is placed at most once.
func (t *Tree) Place(v int, path string) error {
	if v < 0 || v >= t.n {
		return fmt.Errorf("node %d is not in 1..%d", v+1, t.n)
	}
	if t.node[v] >= 0 {
		return fmt.Errorf("node %d already has domain %s", v+1, t.paths[t.node[v]])
	}
	d, err := t.Add(path)
	if err != nil {
		return err
	}
	t.node[v] = d
	t.direct[d] = append(t.direct[d], v)
	return nil
}

// SetP sets the probability that domain d is up. p must be in [0, 1].
func (t *Tree) SetP(d int, p *big.Rat) error {
	if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
		return fmt.Errorf("p = %s of domain %s is not in [0, 1]", p.FloatString(6), t.paths[d])
	}
	t.p[d] = new(big.Rat).Set(p)
	return nil
}

// Lookup returns the number of the domain with this path.
func (t *Tree) Lookup(path string) (int, bool) {
	d, ok := t.byPath[path]
	return d, ok
}

// Path returns the path of domain d.
func (t *Tree) Path(d int) string { return t.paths[d] }

// Parent returns the domain just above d, or −1 for a top-level domain.
func (t *Tree) Parent(d int) int { return t.parent[d] }

// Level returns the depth of domain d: 1 for a top-level domain.
func (t *Tree) Level(d int) int { return t.depth[d] }

// Children returns the domains just below d.
func (t *Tree) Children(d int) []int { return t.children[d] }

// Direct returns the nodes whose innermost domain is d.
func (t *Tree) Direct(d int) []int { return t.direct[d] }

// Fallible reports whether some domain of t may fail (its probability of
// being up is below 1), so that nodes do not fail independently; false
// for a nil tree.
func (t *Tree) Fallible() bool {
	if t == nil {
		return false
	}
	one := big.NewRat(1, 1)
	for d := range t.Len() {
		if t.P(d).Cmp(one) < 0 {
			return true
		}
	}
	return false
}

// P returns the probability that domain d is up (1 when not given).
func (t *Tree) P(d int) *big.Rat {
	if t.p[d] == nil {
		return big.NewRat(1, 1)
	}
	return t.p[d]
}

// HasP reports whether domain d was given a probability.
func (t *Tree) HasP(d int) bool { return t.p[d] != nil }

// Node returns the innermost domain of node v, or −1.
func (t *Tree) Node(v int) int { return t.node[v] }

// Above returns the domains above node v, outermost first: the chain from
// a top-level domain down to v's innermost domain.
func (t *Tree) Above(v int) []int {
	var out []int
	for d := t.node[v]; d >= 0; d = t.parent[d] {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// Roots returns the top-level domains.
func (t *Tree) Roots() []int {
	var out []int
	for d, p := range t.parent {
		if p < 0 {
			out = append(out, d)
		}
	}
	return out
}

// Loose returns the nodes in no domain.
func (t *Tree) Loose() []int {
	var out []int
	for v, d := range t.node {
		if d < 0 {
			out = append(out, v)
		}
	}
	return out
}

// Depth returns the largest level of any domain (0 for no domains).
func (t *Tree) Depth() int {
	m := 0
	for _, d := range t.depth {
		m = max(m, d)
	}
	return m
}

// AtLevel returns the domains of depth l, in order of their paths.
func (t *Tree) AtLevel(l int) []int {
	var out []int
	for d, dep := range t.depth {
		if dep == l {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return strings.Compare(t.paths[a], t.paths[b]) })
	return out
}

// Under returns every node below domain d (directly or in a domain below
// it), in increasing order.
func (t *Tree) Under(d int) []int {
	var out []int
	var walk func(int)
	walk = func(d int) {
		out = append(out, t.direct[d]...)
		for _, c := range t.children[d] {
			walk(c)
		}
	}
	walk(d)
	slices.Sort(out)
	return out
}

// Contains reports whether domain a is d or above d.
func (t *Tree) Contains(a, d int) bool {
	for ; d >= 0; d = t.parent[d] {
		if d == a {
			return true
		}
	}
	return false
}

// Check applies the rules every tree read from a file must meet: once a
// node has a domain every node has one, and no domain path is a whole
// number or one of labels (the nodes' names). It returns the first
// problem.
func (t *Tree) Check(labels []string) error {
	if t.Empty() {
		return nil
	}
	names := map[string]bool{}
	for _, l := range labels {
		if l != "" {
			names[l] = true
		}
	}
	for _, p := range t.paths {
		if _, err := strconv.Atoi(p); err == nil {
			return fmt.Errorf("domain %q is a whole number, which names a node", p)
		}
		if names[p] {
			return fmt.Errorf("domain %q is also a node's label", p)
		}
	}
	for v, d := range t.node {
		if d < 0 {
			name := strconv.Itoa(v + 1)
			if v < len(labels) && labels[v] != "" {
				name += " (" + labels[v] + ")"
			}
			return &NodeError{Node: v, Msg: fmt.Sprintf("node %s has no domain, while other nodes have one (give every node a domain)", name)}
		}
	}
	return nil
}

// NodeError is a problem with one node's domain.
type NodeError struct {
	Node int // 0-based
	Msg  string
}

func (e *NodeError) Error() string { return "domain: " + e.Msg }

// SetLevelNames names the levels, outermost first ("region", "zone",
// "rack"), for [Tree.LevelOf] and for reports.
func (t *Tree) SetLevelNames(names []string) { t.names = slices.Clone(names) }

// LevelName returns the name of level l (1 = outermost): its given name,
// else the number.
func (t *Tree) LevelName(l int) string {
	if l >= 1 && l <= len(t.names) && t.names[l-1] != "" {
		return t.names[l-1]
	}
	return strconv.Itoa(l)
}

// LevelOf returns the level that name names: a level's name, or its
// number counted from 1 for the outermost.
func (t *Tree) LevelOf(name string) (int, error) {
	for i, nm := range t.names {
		if strings.EqualFold(nm, name) {
			return i + 1, nil
		}
	}
	l, err := strconv.Atoi(name)
	if err != nil || l < 1 || l > t.Depth() {
		if len(t.names) > 0 {
			return 0, fmt.Errorf("no domain level %q (the levels are %s, or 1..%d)", name, strings.Join(t.names, ", "), t.Depth())
		}
		return 0, fmt.Errorf("no domain level %q (the levels are numbered 1..%d, 1 the outermost)", name, t.Depth())
	}
	return l, nil
}

// Clone returns a deep copy of t.
func (t *Tree) Clone() *Tree {
	c := &Tree{
		n:      t.n,
		paths:  slices.Clone(t.paths),
		parent: slices.Clone(t.parent),
		depth:  slices.Clone(t.depth),
		p:      slices.Clone(t.p),
		node:   slices.Clone(t.node),
		names:  slices.Clone(t.names),
		byPath: make(map[string]int, len(t.byPath)),
	}
	for k, v := range t.byPath {
		c.byPath[k] = v
	}
	for _, x := range t.children {
		c.children = append(c.children, slices.Clone(x))
	}
	for _, x := range t.direct {
		c.direct = append(c.direct, slices.Clone(x))
	}
	return c
}

func sortByPath(t *Tree, ds []int) {
	slices.SortFunc(ds, func(a, b int) int { return strings.Compare(t.paths[a], t.paths[b]) })
}
