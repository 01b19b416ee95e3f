package construct

import "github.com/coterie-dev/coterie/set"

// Held reports whether f is held by its construction's parameters, not
// by its quorums: an implicit family, whose quorums [Explicit] lists (or
// refuses to list) and whose typed form ([Typed]) answers what the
// construction knows. It is false for a nil family, a list, and a
// threshold family (every w-subset of its nodes).
func Held(f *set.Family) bool {
	return f != nil && f.IsImplicit()
}
