package protocol

import (
	"encoding/binary"
)

// The state encodings are sequences of varints: compact for the explorer's
// small instances and trivially canonical.

func putInt(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

func putBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func putInts(b []byte, q []int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(q)))
	for _, v := range q {
		b = binary.AppendVarint(b, int64(v))
	}
	return b
}

var errBadState = errorf("malformed state encoding")

// reader decodes what the put functions wrote; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errBadState
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int32() int32 { return int32(r.int()) }

func (r *reader) bool() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = errBadState
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v != 0
}

// ints decodes a list into buf[:0], refusing more than max elements.
func (r *reader) ints(buf []int32, max int) []int32 {
	if r.err != nil {
		return buf[:0]
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(max) {
		r.err = errBadState
		return buf[:0]
	}
	r.b = r.b[k:]
	buf = buf[:0]
	for range n {
		buf = append(buf, r.int32())
	}
	return buf
}

// done returns the sticky error, or an error if bytes are left over.
func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		return errBadState
	}
	return r.err
}
