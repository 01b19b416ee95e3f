//go:build !race

package domination

// raceDetector reports a build with the race detector (see solve).
const raceDetector = false
