package protocol

import (
	"context"
	"testing"
)

func run(t testing.TB, name string, sys *System, cfg Config) *Result {
	t.Helper()
	r, err := Simulate(context.Background(), mustSpec(t, name), sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestQuick(t *testing.T) {
	for _, name := range Names() {
		for _, load := range []Load{{Kind: Light}, {Kind: Heavy}, {Kind: Poisson, Rate: 0.05}} {
			r := run(t, name, system(t, fig1c()), Config{Load: load, Entries: 2000, Seed: 1})
			t.Logf("%s %s: %.3f msgs/entry %v viol=%d dead=%v anom=%d maxwait=%.2f mean=%.2f", name, load, r.MessagesPerEntry, r.ByType, r.SafetyViolations, r.Deadlock, r.Anomalies, r.MaxWait, r.MeanWait)
			if r.DeadlockInfo != nil {
				t.Logf("%+v", r.DeadlockInfo)
			}
		}
	}
}
