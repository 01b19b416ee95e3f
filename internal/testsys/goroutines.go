package testsys

import (
	"runtime"
	"strings"
)

// Computing returns the stacks of the goroutines of this process that are
// in a call of one of fns, each named in full without the module:
// "construct." for any function of package construct, "construct.collect"
// for one. Only the frames a goroutine is in count, not the "created by"
// line that ends its stack: a goroutine done with its work, on its way
// out, still shows who started it.
func Computing(fns ...string) []string {
	return computingIn(allStacks(), fns)
}

// allStacks returns the stacks of every goroutine, as runtime.Stack
// writes them.
func allStacks() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// computingIn is Computing on the stacks dump.
func computingIn(dump string, fns []string) []string {
	var out []string
	for _, g := range strings.Split(dump, "\n\n") {
		frames := g
		if i := strings.Index(g, "\ncreated by "); i >= 0 {
			frames = g[:i]
		}
		for _, fn := range fns {
			if strings.Contains(frames, "github.com/coterie-dev/coterie/"+fn) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}
