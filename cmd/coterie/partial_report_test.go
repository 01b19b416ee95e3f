package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfoStoppedIsPartial runs info and compare with a context cancelled
// before they start: the figures that need no search are printed, the
// figures stopped are named in notes, the report is marked partial, and
// the exit status is 130.
func TestInfoStoppedIsPartial(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join(dir, "fano.txt")
	if err := os.WriteFile(fano, []byte(fanoText), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}

	var o, e bytes.Buffer
	code := run(cancelled(), []string{"info", fano, "--json"}, &streams{in: strings.NewReader(""), out: &o, err: &e})
	if code != exitInterrupted {
		t.Fatalf("info: exit %d, want %d; stderr: %s", code, exitInterrupted, e.String())
	}
	var rep struct {
		Quorums    int      `json:"quorums"`
		Messages   float64  `json:"messages_per_entry"`
		Load       *float64 `json:"load"`
		Resilience *int     `json:"resilience"`
		Notes      []string `json:"notes"`
		Partial    bool     `json:"partial"`
	}
	if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
		t.Fatalf("info: %v in %q", err, o.String())
	}
	// Maekawa's count for the Fano plane: 3·(3−1) = 6 messages.
	if !rep.Partial || rep.Quorums != 7 || rep.Messages != 6 || rep.Load != nil || rep.Resilience != nil {
		t.Errorf("info: partial report %+v", rep)
	}
	if len(rep.Notes) == 0 || !strings.Contains(strings.Join(rep.Notes, "\n"), "stopped before it was found") {
		t.Errorf("info: no note names the figure stopped: %q", rep.Notes)
	}

	o.Reset()
	e.Reset()
	code = run(cancelled(), []string{"compare", fano, fano}, &streams{in: strings.NewReader(""), out: &o, err: &e})
	if code != exitInterrupted {
		t.Fatalf("compare: exit %d, want %d; stderr: %s", code, exitInterrupted, e.String())
	}
	if !strings.Contains(o.String(), "partial: stopped while measuring "+fano+"; 1 of 2 files shown") {
		t.Errorf("compare: stopped table not marked partial:\n%s", o.String())
	}

	// Not stopped, the same report is whole.
	o.Reset()
	e.Reset()
	code = run(context.Background(), []string{"info", fano, "--json"}, &streams{in: strings.NewReader(""), out: &o, err: &e})
	if code != exitOK || strings.Contains(o.String(), "partial") {
		t.Errorf("info: exit %d, report:\n%s", code, o.String())
	}
}
