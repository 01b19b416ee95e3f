package format

import "testing"

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
		got, err := ParseByteSize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1GiB", "12parsecs", "1e9", "NaN", "Inf", "+5", "1.2.3G", "99999999999TiB"} {
		if got, err := ParseByteSize(bad); err == nil {
			t.Errorf("ParseByteSize(%q) = %d, want an error", bad, got)
		}
	}
}

// What ByteSize writes reads back as the same number of bytes when it is
// exact (a whole number of its unit).
func TestByteSizeRoundTrip(t *testing.T) {
	for _, b := range []int64{0, 512, 1 << 10, 3 << 20, 4 << 30, 2 << 40} {
		s := ByteSize(b)
		got, err := ParseByteSize(s)
		if err != nil || got != b {
			t.Errorf("ParseByteSize(ByteSize(%d) = %q) = %d, %v", b, s, got, err)
		}
	}
}
