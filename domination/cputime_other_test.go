//go:build !unix

package domination

import "time"

// cpuTime reports false: the process's CPU time is not read here.
func cpuTime() (time.Duration, bool) { return 0, false }
