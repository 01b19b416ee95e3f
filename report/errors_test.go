package report

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestAvErrorOnce: an availability error is named once, whether or not
// the availability package named it already, and stays what it wraps.
func TestAvErrorOnce(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("availability: estimate: %w", context.DeadlineExceeded), "report: x: availability: estimate: context deadline exceeded"},
		{fmt.Errorf("availability: %w", context.Canceled), "report: x: availability: context canceled"},
		{errors.New("too many quorums"), "report: x: availability: too many quorums"},
	} {
		err := avError("x", tt.err)
		if err.Error() != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%q, want %q", err, tt.want)
		}
	}
}
