package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/format"
)

// byteSize is a number of bytes as a flag: a whole or decimal number with
// an optional unit, B, KiB, MiB, GiB, TiB (powers of 1024; K, M, G, T
// too) or KB, MB, GB, TB (powers of 1000), in any case.
type byteSize int64

func (b *byteSize) String() string { return format.ByteSize(int64(*b)) }

func (b *byteSize) Type() string { return "bytes" }

func (b *byteSize) Set(s string) error {
	v, err := format.ParseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(v)
	return nil
}

// Memory budget defaults: half of the memory the machine (or the cgroup
// the process runs in) has, between minMemory and maxDefaultMemory;
// fallbackMemory when neither can be read.
const (
	minMemory        int64 = 256 << 20
	maxDefaultMemory int64 = 64 << 30
	fallbackMemory   int64 = 4 << 30
)

// defaultMaxMemory returns the default of --max-memory.
func defaultMaxMemory() int64 {
	total := memTotal()
	if cg := cgroupLimit(); cg > 0 && (total == 0 || cg < total) {
		total = cg
	}
	if total <= 0 {
		return fallbackMemory
	}
	return min(max(total/2, minMemory), maxDefaultMemory)
}

// memTotal returns MemTotal from /proc/meminfo in bytes, or 0.
func memTotal() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit returns the memory limit of the process's cgroup (v2), or 0
// for none.
func cgroupLimit() int64 {
	data, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || v <= 0 {
		return 0 // "max": no limit
	}
	return v
}

// addMemoryFlag adds the global --max-memory flag.
func addMemoryFlag(root *cobra.Command) {
	v := byteSize(defaultMaxMemory())
	root.PersistentFlags().Var(&v, "max-memory",
		"stop, with what was found so far, before taking more memory than this (such as 512MiB, 4GiB; 0 = no limit); "+
			"input files may be 1/4 of it")
	root.PersistentFlags().Lookup("max-memory").DefValue = "half the RAM, at most 64GiB"
	// The budget is also the Go runtime's soft memory limit, so that the
	// garbage collector keeps the process near what the budgets count.
	prev := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		setMemoryBudget(maxMemory(cmd))
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
}

// maxMemory returns the --max-memory budget of the command being run, in
// bytes, for the MaxMemory field of a package's Options (0: no limit).
func maxMemory(cmd *cobra.Command) int64 {
	if cmd == nil {
		return 0
	}
	f := cmd.Flag("max-memory")
	if f == nil {
		return 0
	}
	if b, ok := f.Value.(*byteSize); ok {
		return int64(*b)
	}
	return 0
}

// budgetHint is what a message about a memory budget adds: the flag and
// its value.
func budgetHint(cmd *cobra.Command) string {
	return fmt.Sprintf("the budget is --max-memory %s", format.ByteSize(maxMemory(cmd)))
}
