// Package domain models failure domains: racks, zones, regions and any
// other parts of a deployment that fail together.
//
// A [Tree] is a forest of domains named by paths, outermost first, levels
// separated by "/" ("eu-west/az-b/rack-7"). Each node of a quorum system
// may sit in one domain (its innermost); it is then also under every
// domain above it. Each domain is up with its own probability (1 when not
// given), and a node is up iff it and every domain above it are up; all
// these events are independent.
//
// The package reads the domains file ([ReadCSV]: CSV "domain,p") and
// checks paths ([ParsePath]); package availability computes exact
// availability under this model and [Resilience] tells how many domains of
// one level may fail while a quorum survives.
//
// Edge cases, decided once for every reader:
//   - once any node has a domain, every node must have one ([Tree.Check]
//     names the first node without);
//   - a domain path may not be a whole number or a node's label, so that
//     a list such as "--down 3,eu-west" is never ambiguous;
//   - a probability must be a number in [0, 1] (not NaN);
//   - a domain given a probability must be the domain of some node, or
//     above one: a name that no node uses is taken for a typo.
package domain
