//go:build unix

package domination

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used,
// and true; benchmarks report it per operation, which a loaded machine
// skews less than the wall time.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
