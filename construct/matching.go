package construct

import (
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// bipartite is a bipartite graph seen from its left side. Adjacency may be
// computed on demand (a projective plane's incidences come from field
// arithmetic), so that a matching never needs the graph in memory.
type bipartite interface {
	left() int
	right() int
	degree(u int) int
	// neighbor returns the k-th right neighbour of u, 0 ≤ k < degree(u), or
	// -1 if that slot holds no edge (a filtered incidence).
	neighbor(u, k int) int
}

// seeder is a bipartite graph that suggests, for each left vertex, the
// neighbour slot to try first (or -1): a structural matching known for the
// graph, which Hopcroft–Karp then checks and completes.
type seeder interface {
	seed(u int) int
}

// matching is a matching of a bipartite graph: l[u] is the right vertex
// matched to left vertex u, r[v] the left vertex matched to v, -1 if none.
type matching struct {
	l, r []int32
	size int
}

const unmatched = -1

// maxMatching returns a maximum matching of g by the Hopcroft–Karp
// algorithm (SIAM J. Comput. 2(4), 1973): a greedy first pass, then phases
// that each find a maximal set of vertex-disjoint shortest augmenting paths
// by a breadth-first layering and depth-first searches. It is deterministic:
// left vertices and their neighbours are tried in index order, except that
// when g is a seeder the greedy pass first tries each vertex's seed slot.
//
// Cost: O(E·√V) neighbour calls at worst, far less on the regular graphs
// coterie matches; memory O(V), whatever the number of edges.
func maxMatching(g bipartite) *matching {
	nl, nr := g.left(), g.right()
	m := &matching{l: make([]int32, nl), r: make([]int32, nr)}
	for i := range m.l {
		m.l[i] = unmatched
	}
	for i := range m.r {
		m.r[i] = unmatched
	}
	sd, _ := g.(seeder)
	for u := range nl {
		if sd != nil {
			if k := sd.seed(u); k >= 0 {
				if v := g.neighbor(u, k); v >= 0 && m.r[v] == unmatched {
					m.l[u], m.r[v] = int32(v), int32(u)
					m.size++
					continue
				}
			}
		}
		for k, d := 0, g.degree(u); k < d; k++ {
			if v := g.neighbor(u, k); v >= 0 && m.r[v] == unmatched {
				m.l[u], m.r[v] = int32(v), int32(u)
				m.size++
				break
			}
		}
	}
	if m.size == min(nl, nr) {
		return m
	}
	h := hopcroftKarp{g: g, m: m, dist: make([]int32, nl), next: make([]int32, nl)}
	for h.layer() {
		h.augment()
	}
	return m
}

const inf = int32(1<<31 - 1)

type hopcroftKarp struct {
	g     bipartite
	m     *matching
	dist  []int32 // BFS layer of each left vertex, inf if unreached
	next  []int32 // next neighbour slot each left vertex tries
	limit int32   // layer at which a free right vertex was first reached
	queue []int32
	stack []int32
}

// layer runs the breadth-first search from every free left vertex over
// alternating paths, and reports whether a free right vertex is reachable.
func (h *hopcroftKarp) layer() bool {
	g, m := h.g, h.m
	h.queue = h.queue[:0]
	for u := range h.dist {
		h.next[u] = 0
		if m.l[u] == unmatched {
			h.dist[u] = 0
			h.queue = append(h.queue, int32(u))
		} else {
			h.dist[u] = inf
		}
	}
	h.limit = inf
	for i := 0; i < len(h.queue); i++ {
		u := int(h.queue[i])
		du := h.dist[u]
		if du >= h.limit {
			break // the queue is in layer order
		}
		for k, d := 0, g.degree(u); k < d; k++ {
			v := g.neighbor(u, k)
			if v < 0 {
				continue
			}
			w := m.r[v]
			switch {
			case w == unmatched:
				if h.limit == inf {
					h.limit = du + 1
				}
			case h.dist[w] == inf:
				h.dist[w] = du + 1
				h.queue = append(h.queue, w)
			}
		}
	}
	return h.limit != inf
}

// augment searches depth-first, from each free left vertex, for augmenting
// paths that follow the layers, and flips every one it finds. The search is
// iterative: paths in a large plane can be long.
func (h *hopcroftKarp) augment() {
	g, m := h.g, h.m
	for root := range h.dist {
		if m.l[root] != unmatched || h.dist[root] != 0 {
			continue
		}
		h.stack = append(h.stack[:0], int32(root))
		for len(h.stack) > 0 {
			u := int(h.stack[len(h.stack)-1])
			if int(h.next[u]) >= g.degree(u) {
				h.dist[u] = inf // dead end for the rest of this phase
				h.stack = h.stack[:len(h.stack)-1]
				if len(h.stack) > 0 {
					h.next[h.stack[len(h.stack)-1]]++
				}
				continue
			}
			v := g.neighbor(u, int(h.next[u]))
			if v < 0 {
				h.next[u]++
				continue
			}
			w := m.r[v]
			if w == unmatched {
				if h.dist[u]+1 != h.limit {
					h.next[u]++
					continue
				}
				// Flip the path: each vertex on the stack takes the edge it
				// descended by.
				for _, x := range h.stack {
					y := g.neighbor(int(x), int(h.next[x]))
					m.l[x], m.r[y] = int32(y), x
				}
				m.size++
				break
			}
			// Follow the layers; a vertex at the last layer cannot reach a
			// free right vertex within a shortest path.
			if h.dist[w] == h.dist[u]+1 && h.dist[w] < h.limit {
				h.stack = append(h.stack, w)
				continue
			}
			h.next[u]++
		}
	}
}

// hallViolator returns, when m is not left-perfect, a set X of left vertices
// whose neighbourhood is smaller than X (Hall's condition fails): the left
// vertices reachable from the free ones by alternating paths (König). It
// returns nil if every left vertex is matched.
func hallViolator(g bipartite, m *matching) []int {
	if m.size == g.left() {
		return nil
	}
	seen := make([]bool, g.left())
	var queue []int
	for u, v := range m.l {
		if v == unmatched {
			seen[u] = true
			queue = append(queue, u)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for k, d := 0, g.degree(u); k < d; k++ {
			if v := g.neighbor(u, k); v >= 0 {
				if w := int(m.r[v]); w != unmatched && !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	var x []int
	for u, s := range seen {
		if s {
			x = append(x, u)
		}
	}
	return x
}

// adjacency is an explicit bipartite graph in compressed rows.
type adjacency struct {
	nr  int
	off []int32 // row u is adj[off[u]:off[u+1]]
	adj []int32
}

func (a *adjacency) left() int             { return len(a.off) - 1 }
func (a *adjacency) right() int            { return a.nr }
func (a *adjacency) degree(u int) int      { return int(a.off[u+1] - a.off[u]) }
func (a *adjacency) neighbor(u, k int) int { return int(a.adj[int(a.off[u])+k]) }
func (a *adjacency) row(u int) []int32     { return a.adj[a.off[u]:a.off[u+1]] }

// nodeQuorums returns the incidence graph of f with nodes on the left and
// quorum positions on the right, each node's quorums in increasing order.
func nodeQuorums(f *set.Family) *adjacency {
	deg := make([]int32, f.N+1)
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			deg[v+1]++
		}
	}
	for v := range f.N {
		deg[v+1] += deg[v]
	}
	a := &adjacency{nr: len(f.Quorums), off: deg, adj: make([]int32, deg[f.N])}
	fill := append([]int32(nil), deg[:f.N]...)
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			a.adj[fill[v]] = int32(i)
			fill[v]++
		}
	}
	return a
}

// AssignOwners makes every node of f own a distinct quorum that contains it
// (Maekawa's property (b), i ∈ S_i), replacing any owners f had, and puts f
// in canonical order, so that S_i is quorum i when there are exactly N
// quorums. Quorums left over stay unowned. The assignment is a maximum
// matching of the node–quorum incidence graph (Hopcroft–Karp), so it is
// found whenever one exists, and the same family always gets the same
// owners.
//
// When no assignment exists it returns an error naming nodes that lie in
// too few quorums between them (a violation of Hall's condition), and leaves
// f unchanged. f must be explicit.
func AssignOwners(f *set.Family) error {
	if err := assignOwners(f); err != nil {
		return errorf("owners", "%w", err)
	}
	return nil
}

func assignOwners(f *set.Family) error {
	if f.IsThreshold() {
		return fmt.Errorf("a threshold family (all %d-subsets) has no explicit quorums to own", f.Threshold)
	}
	g := nodeQuorums(f)
	m := maxMatching(g)
	if x := hallViolator(g, m); x != nil {
		nbrs := map[int32]bool{}
		for _, u := range x {
			for _, v := range g.row(u) {
				nbrs[v] = true
			}
		}
		return fmt.Errorf("no node-to-quorum assignment: nodes %s lie in only %d quorums between them",
			nodeList(x, 12), len(nbrs))
	}
	owners := make([]int, len(f.Quorums))
	for i := range owners {
		owners[i] = set.NoOwner
	}
	for u, v := range m.l {
		owners[v] = u
	}
	f.Owners = owners
	f.Canonical()
	return nil
}

// nodeList formats 0-based nodes 1-based for a message, "1, 4, 9", with at
// most limit of them and a count of the rest.
func nodeList(nodes []int, limit int) string {
	var sb strings.Builder
	for i, v := range nodes {
		if i == limit {
			fmt.Fprintf(&sb, " and %d more", len(nodes)-limit)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprint(&sb, v+1)
	}
	return sb.String()
}
