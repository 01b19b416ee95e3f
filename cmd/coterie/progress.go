package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows how far a long computation has got, on stderr, only when
// stderr is a terminal and only once the work has run for a second; quick
// runs and redirected output stay clean. Its Update method is safe to call
// from several goroutines and is meant to be handed to library code as a
// progress callback.
type progress struct {
	s     *streams
	desc  string
	start time.Time
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	done  bool // after Done, updates (from abandoned work) are ignored
}

// newProgress starts a progress reporter for the work described by desc
// ("verify: 4-wise intersection", say).
func newProgress(s *streams, desc string) *progress {
	return &progress{s: s, desc: desc, start: time.Now()}
}

// Update records that done of total units are finished. A total of -1
// means unknown (a spinner is drawn).
func (p *progress) Update(done, total int64) {
	if p == nil || !p.s.errTerminal || time.Since(p.start) < time.Second {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if p.bar == nil {
		w := p.s.rawErr
		if w == nil {
			w = p.s.err
		}
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(escapeField(p.desc)),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)
	}
	if total != p.bar.GetMax64() {
		p.bar.ChangeMax64(total)
	}
	_ = p.bar.Set64(done)
}

// Done clears the progress line.
func (p *progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		p.bar = nil
	}
}

// writeProgress reports how many of total quorums have been written: with
// --progress as a plain line on stderr every second (whatever stderr is),
// otherwise as the terminal progress bar.
type writeProgress struct {
	s     *streams
	desc  string
	total int64
	plain bool
	bar   *progress
	last  time.Time
}

func newWriteProgress(s *streams, desc string, total int64, plain bool) *writeProgress {
	return &writeProgress{s: s, desc: desc, total: total, plain: plain, bar: newProgress(s, desc), last: time.Now()}
}

// Update records that done quorums are written.
func (w *writeProgress) Update(done int64) {
	if !w.plain {
		w.bar.Update(done, w.total)
		return
	}
	if time.Since(w.last) < time.Second {
		return
	}
	w.last = time.Now()
	pct := 0.0
	if w.total > 0 {
		pct = 100 * float64(done) / float64(w.total)
	}
	fmt.Fprintf(w.s.err, "coterie: %s: %d of %d quorums written (%.0f%%)\n", w.desc, done, w.total, pct)
}

// Done clears the progress bar.
func (w *writeProgress) Done() { w.bar.Done() }
