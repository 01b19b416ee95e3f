package format

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/coterie-dev/coterie/set"
)

// Writer writes one family quorum by quorum, so that a system of any size
// streams to its file. Create it with [NewWriter], call [Writer.Quorum] once
// per quorum in order, then [Writer.Close]. It does not close the underlying
// io.Writer.
type Writer struct {
	w      *bufio.Writer
	f      Format
	meta   *set.Family
	base   int
	csvOwn bool  // the CSV has an owner column
	owners []int // JSON: owners, written after the quorums
	owned  bool  // some quorum has an owner
	count  int
	buf    []byte
	ids    []int // the nodes of the quorum being written
	err    error
}

// NewWriter starts writing a family with meta's N, K, H, Kind, Params,
// Labels and Threshold; its quorums are ignored and come through
// [Writer.Quorum]. meta.Owners != nil announces that the quorums have owners:
// the CSV writer needs to know before its header (its contents are ignored).
// A threshold family takes no quorums. The .dat format refuses a threshold
// family.
func NewWriter(w io.Writer, f Format, meta *set.Family, opt Options) (*Writer, error) {
	if f == Dat && meta.IsImplicit() {
		return nil, fmt.Errorf("format: the .dat format lists quorums, and this is an implicit %s family (its quorums are defined by its parameters, too many to list): materialise it first (construct.Materialize), or write JSON, text or CSV", meta.Kind)
	}
	if f == Dat && meta.IsThreshold() {
		return nil, fmt.Errorf("format: the .dat format lists quorums; enumerate the threshold family (all %d-subsets of %d nodes) first, or write JSON, text or CSV",
			meta.Threshold, meta.N)
	}
	if f != JSON && f != Text && f != CSV && f != Dat {
		return nil, fmt.Errorf("format: unknown format %q", f)
	}
	base := opt.Base
	if f != Dat || base != 0 {
		base = 1
	}
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16), f: f, meta: meta, base: base, csvOwn: meta.Owners != nil}
	sw.header()
	return sw, sw.err
}

func (sw *Writer) str(s string) {
	if sw.err == nil {
		_, sw.err = sw.w.WriteString(s)
	}
}

func (sw *Writer) header() {
	m := sw.meta
	switch sw.f {
	case JSON:
		sw.str("{\n")
		sw.jsonMeta(m.Kind, m.Params, m.N, m.K, m.Labels)
		if m.IsThreshold() {
			sw.str(fmt.Sprintf("  \"threshold\": %d\n}\n", m.Threshold))
			return
		}
		if m.IsImplicit() {
			sw.str("  \"implicit\": true\n}\n")
			return
		}
		sw.str("  \"quorums\": [")
	case Text, CSV:
		sw.textMeta(m.Kind, m.Params, m.N, m.K, m.Labels)
		if m.IsThreshold() {
			sw.str(fmt.Sprintf("# threshold: %d\n", m.Threshold))
		}
		if m.IsImplicit() {
			sw.str("# implicit: true\n")
		}
		if sw.f == CSV {
			if sw.csvOwn {
				sw.str("quorum,node,owner\n")
			} else {
				sw.str("quorum,node\n")
			}
		}
	}
}

// jsonMeta writes the fields every JSON file starts with.
func (sw *Writer) jsonMeta(kind string, params set.Params, n, k int, labels []string) {
	sw.str("  \"format\": \"" + Tag + "\",\n")
	if kind != "" {
		sw.str("  \"kind\": " + jsonString(kind) + ",\n")
	}
	if len(params) > 0 {
		p, err := encodeParams(params)
		if err != nil && sw.err == nil {
			sw.err = err
		}
		sw.str("  \"params\": " + p + ",\n")
	}
	sw.str(fmt.Sprintf("  \"n\": %d,\n  \"k\": %d,\n", n, k))
	if labels != nil {
		sw.str("  \"labels\": " + encodeLabels(labels) + ",\n")
	}
}

// textMeta writes the header comments of text and CSV files. The kind is
// written as it is, or as a JSON string when it holds what a header line
// cannot (see [headerValue]); params and labels are JSON. In a CSV file no
// string holds a comma and a label that looks like a formula starts with '.
func (sw *Writer) textMeta(kind string, params set.Params, n, k int, labels []string) {
	csv := sw.f == CSV
	sw.str("# format: " + Tag + "\n")
	if kind != "" {
		sw.str("# kind: " + headerValue(kind, csv) + "\n")
	}
	if len(params) > 0 {
		p, err := encodeParams(params)
		if err != nil && sw.err == nil {
			sw.err = err
		}
		if csv {
			p = csvHeaderValue(p)
		}
		sw.str("# params: " + p + "\n")
	}
	sw.str(fmt.Sprintf("# n: %d\n# k: %d\n", n, k))
	if labels != nil {
		l := labels
		if csv {
			l = make([]string, len(labels))
			for i, s := range labels {
				l[i] = csvLabel(s)
			}
		}
		v := encodeLabels(l)
		if csv {
			v = csvHeaderValue(v)
		}
		sw.str("# labels: " + v + "\n")
	}
}

// Quorum writes the next quorum, owned by owner (0-based, or set.NoOwner).
func (sw *Writer) Quorum(q *set.Set, owner int) error {
	sw.ids = q.AppendTo(sw.ids[:0])
	return sw.quorum(sw.ids, owner)
}

// QuorumList is [Writer.Quorum] for a quorum given as its 0-based nodes in
// increasing order, such as one of a sparse family ([set.Lists]).
func (sw *Writer) QuorumList(nodes []int32, owner int) error {
	sw.ids = sw.ids[:0]
	for _, v := range nodes {
		sw.ids = append(sw.ids, int(v))
	}
	return sw.quorum(sw.ids, owner)
}

// quorum writes a quorum given as its 0-based nodes in increasing order.
func (sw *Writer) quorum(nodes []int, owner int) error {
	if sw.err != nil {
		return sw.err
	}
	if sw.meta.IsThreshold() {
		return errors.New("format: a threshold family lists no quorums")
	}
	if sw.meta.IsImplicit() {
		return errors.New("format: an implicit family lists no quorums")
	}
	if len(nodes) == 0 {
		return fmt.Errorf("format: quorum %d is empty", sw.count+1)
	}
	sw.count++
	if owner != set.NoOwner {
		sw.owned = true
	}
	b := sw.buf[:0]
	switch sw.f {
	case JSON:
		if sw.count > 1 {
			b = append(b, ',')
		}
		b = append(b, "\n    ["...)
		first := true
		for _, v := range nodes {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = strconv.AppendInt(b, int64(v+1), 10)
		}
		b = append(b, ']')
		sw.owners = append(sw.owners, owner)
	case Text, Dat:
		first := true
		for _, v := range nodes {
			if !first {
				b = append(b, ' ')
			}
			first = false
			b = strconv.AppendInt(b, int64(v+sw.base), 10)
		}
		if sw.f == Text && owner != set.NoOwner {
			b = append(b, " # owner: "...)
			b = strconv.AppendInt(b, int64(owner+1), 10)
		}
		b = append(b, '\n')
	case CSV:
		for _, v := range nodes {
			b = strconv.AppendInt(b, int64(sw.count), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(v+1), 10)
			if sw.csvOwn {
				b = append(b, ',')
				if owner != set.NoOwner {
					b = strconv.AppendInt(b, int64(owner+1), 10)
				}
			}
			b = append(b, '\n')
		}
		if owner != set.NoOwner && !sw.csvOwn {
			sw.err = errors.New("format: an owned quorum in a CSV whose header has no owner column (set the metadata's Owners)")
			return sw.err
		}
	}
	sw.buf = b
	_, sw.err = sw.w.Write(b)
	return sw.err
}

// Flush writes what is buffered to the underlying io.Writer.
func (sw *Writer) Flush() error {
	if sw.err != nil {
		return sw.err
	}
	sw.err = sw.w.Flush()
	return sw.err
}

// Close finishes the file and flushes it.
func (sw *Writer) Close() error {
	if sw.err != nil {
		return sw.err
	}
	if sw.f == JSON && !sw.meta.IsThreshold() && !sw.meta.IsImplicit() {
		if sw.count > 0 {
			sw.str("\n  ]")
		} else {
			sw.str("]")
		}
		if sw.owned {
			sw.str(",\n  \"owners\": ")
			sw.str(ownersJSON(sw.owners))
		}
		sw.str("\n}\n")
	}
	if sw.err != nil {
		return sw.err
	}
	return sw.w.Flush()
}

// ownersJSON formats owners as a JSON array, 1-based, null for none.
func ownersJSON(owners []int) string {
	b := []byte{'['}
	for i, o := range owners {
		if i > 0 {
			b = append(b, ", "...)
		}
		if o == set.NoOwner {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(o+1), 10)
		}
	}
	return string(append(b, ']'))
}

// writeJSONHK writes an (h,k)-arbiter as JSON with an "arbiters" list.
func writeJSONHK(w io.Writer, a *set.HK) error {
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16), f: JSON, base: 1}
	sw.str("{\n")
	sw.jsonMeta(a.Kind, a.Params, a.N, a.K, a.Labels)
	sw.str("  \"arbiters\": [")
	for li, l := range a.Levels {
		if li > 0 {
			sw.str(",")
		}
		sw.str(fmt.Sprintf("\n    {\"h\": %d, ", l.H))
		if l.IsThreshold() {
			sw.str(fmt.Sprintf("\"threshold\": %d}", l.Threshold))
			continue
		}
		sw.str("\"quorums\": [")
		b := sw.buf[:0]
		for i := range l.Quorums {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n      ["...)
			first := true
			for v := range l.Quorums[i].All() {
				if !first {
					b = append(b, ", "...)
				}
				first = false
				b = strconv.AppendInt(b, int64(v+1), 10)
			}
			b = append(b, ']')
			if len(b) > 1<<15 {
				sw.str(string(b))
				b = b[:0]
			}
		}
		sw.str(string(b))
		sw.buf = b
		if len(l.Quorums) > 0 {
			sw.str("\n    ]")
		} else {
			sw.str("]")
		}
		if hasOwner(l.Owners) {
			sw.str(", \"owners\": " + ownersJSON(l.Owners))
		}
		sw.str("}")
	}
	if len(a.Levels) > 0 {
		sw.str("\n  ]\n}\n")
	} else {
		sw.str("]\n}\n")
	}
	if sw.err != nil {
		return sw.err
	}
	return sw.w.Flush()
}

func hasOwner(owners []int) bool {
	for _, o := range owners {
		if o != set.NoOwner {
			return true
		}
	}
	return false
}

// writeTextHK writes an (h,k)-arbiter as text: the header, then for each
// level a "# h: H" line followed by its quorums or its threshold.
func writeTextHK(w io.Writer, a *set.HK) error {
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16), f: Text, base: 1}
	sw.textMeta(a.Kind, a.Params, a.N, a.K, a.Labels)
	for _, l := range a.Levels {
		sw.str(fmt.Sprintf("# h: %d\n", l.H))
		if l.IsThreshold() {
			sw.str(fmt.Sprintf("# threshold: %d\n", l.Threshold))
			continue
		}
		sw.meta = l
		for i := range l.Quorums {
			if sw.Quorum(&l.Quorums[i], l.Owner(i)) != nil {
				break
			}
		}
	}
	if sw.err != nil {
		return sw.err
	}
	return sw.w.Flush()
}

// writeCSVHK writes an (h,k)-arbiter as CSV with an h column; threshold
// levels are header comments "# h: H" then "# threshold: W".
func writeCSVHK(w io.Writer, a *set.HK) error {
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16), f: CSV, base: 1}
	sw.textMeta(a.Kind, a.Params, a.N, a.K, a.Labels)
	owned := false
	for _, l := range a.Levels {
		if l.IsThreshold() {
			sw.str(fmt.Sprintf("# h: %d\n# threshold: %d\n", l.H, l.Threshold))
		}
		owned = owned || hasOwner(l.Owners)
	}
	if owned {
		sw.str("h,quorum,node,owner\n")
	} else {
		sw.str("h,quorum,node\n")
	}
	b := sw.buf[:0]
	for _, l := range a.Levels {
		for i := range l.Quorums {
			for v := range l.Quorums[i].All() {
				b = strconv.AppendInt(b, int64(l.H), 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(i+1), 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(v+1), 10)
				if owned {
					b = append(b, ',')
					if o := l.Owner(i); o != set.NoOwner {
						b = strconv.AppendInt(b, int64(o+1), 10)
					}
				}
				b = append(b, '\n')
			}
			if len(b) > 1<<15 {
				sw.str(string(b))
				b = b[:0]
			}
		}
	}
	sw.str(string(b))
	if sw.err != nil {
		return sw.err
	}
	return sw.w.Flush()
}
