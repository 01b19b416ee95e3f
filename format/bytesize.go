package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseByteSize reads a number of bytes such as 512MiB, 4GiB, 1.5G or
// 1000000: a whole or decimal number with an optional unit, B, KiB, MiB,
// GiB, TiB (powers of 1024; K, M, G, T too) or KB, MB, GB, TB (powers of
// 1000), in any case. It is the inverse of [ByteSize] up to rounding.
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	scale := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "ki": 1 << 10, "kib": 1 << 10, "kb": 1e3,
		"m": 1 << 20, "mi": 1 << 20, "mib": 1 << 20, "mb": 1e6,
		"g": 1 << 30, "gi": 1 << 30, "gib": 1 << 30, "gb": 1e9,
		"t": 1 << 40, "ti": 1 << 40, "tib": 1 << 40, "tb": 1e12,
	}[unit]
	if scale == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q (use B, KiB, MiB, GiB, TiB or KB, MB, GB, TB)", s, t[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || strings.ContainsAny(num, "+-eEnN") {
		return 0, fmt.Errorf("%q is not a size (such as 512MiB or 4GiB)", s)
	}
	v *= scale
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(v), nil
}
