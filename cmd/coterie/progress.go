package main

import (
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
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		p.bar = nil
	}
}
