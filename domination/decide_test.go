package domination

import (
	"context"
	"testing"
	"time"
)

func TestSmallestPGTiming(t *testing.T) {
	for _, q := range []int{3, 4, 5, 7, 8, 9} {
		f := pg(t, q)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r, err := DecideSmallest(ctx, f)
		cancel()
		if err != nil {
			t.Logf("q=%d: %v after %v", q, err, time.Since(start))
			continue
		}
		t.Logf("q=%d: smallest %d in %v", q, r.Witness.Len(), time.Since(start))
	}
}
