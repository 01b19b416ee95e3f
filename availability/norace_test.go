//go:build !race

package availability

// raceEnabled reports that the race detector is on.
const raceEnabled = false
