package main

import (
	"testing"
)

func TestParseByteSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"1000000", 1000000},
		{"512MiB", 512 << 20},
		{"512mib", 512 << 20},
		{"4GiB", 4 << 30},
		{"4G", 4 << 30},
		{"4 GB", 4e9},
		{"1.5KiB", 1536},
		{"1.5k", 1536},
		{"2TiB", 2 << 40},
		{"100B", 100},
	} {
		got, err := parseByteSize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1GiB", "12parsecs", "1e9", "NaN", "Inf", "+5", "1.2.3G", "99999999999TiB"} {
		if got, err := parseByteSize(bad); err == nil {
			t.Errorf("parseByteSize(%q) = %d, want an error", bad, got)
		}
	}
}

// The default budget is half the machine's memory within its bounds, and
// never below what the commands need to start.
func TestDefaultMaxMemory(t *testing.T) {
	got := defaultMaxMemory()
	if got < minMemory || got > maxDefaultMemory {
		t.Fatalf("default budget %d outside %d..%d", got, minMemory, maxDefaultMemory)
	}
	if total := memTotal(); total > 0 && got > total/2 && got != minMemory {
		t.Errorf("default budget %d is more than half of MemTotal %d", got, total)
	}
}
