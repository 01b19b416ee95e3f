//go:build race

package availability

// raceEnabled reports that the race detector is on: the long counts, ten
// times slower under it, are skipped.
const raceEnabled = true
