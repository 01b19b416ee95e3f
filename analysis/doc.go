// Package analysis computes the figures of quorum systems that the
// command line (info, compare, report, check-config) prints and the web
// explorer shows: sizes and degrees, messages per entry, the load and
// capacity (Naor and Wool), the resilience, the largest b of a Byzantine
// quorum system (Malkhi and Reiter), the availability, and for implicit
// families what their construction knows. It renders nothing: results are
// typed values (numbers, witnesses, the method as a typed value, and for a
// figure not had a [Status] saying why), each figure within a time budget,
// under a context, with a progress hook.
//
// The order of the figures is fixed: load, then resilience (which reuses
// the load for its bound), then the Byzantine figures, then the
// availability at the points asked for.
package analysis
