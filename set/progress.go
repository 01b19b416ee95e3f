package set

// Progress is told how a long computation is going: stage names the part
// that runs ("intersection", "minimality", "building the BDD"), and done of
// total units of work are finished. total is negative when it is not known
// in advance (an exploration, say); done then counts what has been seen.
// Calls come one at a time, perhaps from several goroutines, and must
// return quickly: a Progress draws a progress bar, it does no work.
//
// Every long computation in coterie takes one (a field Progress of its
// options); nil means nobody is listening. Use [Progress.Report] to call
// one that may be nil.
type Progress func(stage string, done, total int64)

// Report calls p unless it is nil.
func (p Progress) Report(stage string, done, total int64) {
	if p != nil {
		p(stage, done, total)
	}
}

// Stage returns p fixed to one stage, as the func(done, total int) that
// inner loops call, or nil if p is nil.
func (p Progress) Stage(stage string) func(done, total int) {
	if p == nil {
		return nil
	}
	return func(done, total int) { p(stage, int64(done), int64(total)) }
}
