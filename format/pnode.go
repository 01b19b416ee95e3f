package format

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// pnodes collects per-node probabilities of n nodes with the given labels
// (nil: none).
type pnodes struct {
	n      int
	labels []string
	out    map[int]float64
}

// add records node a (1..n or a label) up with probability b.
func (p *pnodes) add(a, b string) error {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	v, err := strconv.Atoi(a)
	switch {
	case err == nil && (v < 1 || v > p.n):
		return fmt.Errorf("node %d is out of range 1..%d", v, p.n)
	case err == nil:
		v--
	default:
		if v = slices.Index(p.labels, a); v < 0 {
			return fmt.Errorf("%q is neither a node number 1..%d nor a label", a, p.n)
		}
	}
	x, err := strconv.ParseFloat(b, 64)
	if err != nil || !(x >= 0 && x <= 1) {
		return fmt.Errorf("%q is not a probability between 0 and 1", b)
	}
	if _, dup := p.out[v]; dup {
		return fmt.Errorf("node %s is given twice", a)
	}
	p.out[v] = x
	return nil
}

// ParsePNode reads per-node probabilities written inline, "NODE=P,..."
// (as --p-node takes them), for n nodes with the given labels (nil:
// none); NODE is a node number 1..n or a label. The nodes of the result
// are 0-based.
func ParsePNode(spec string, n int, labels []string) (map[int]float64, error) {
	p := &pnodes{n: n, labels: labels, out: map[int]float64{}}
	for _, item := range strings.Split(spec, ",") {
		a, b, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not NODE=P", item)
		}
		if err := p.add(a, b); err != nil {
			return nil, err
		}
	}
	return p.out, nil
}

// ReadPNode reads a file of per-node probabilities: one "NODE P" a line
// (separated by spaces, tabs, a comma or "="), "#" starting a comment;
// NODE as in [ParsePNode]. A problem is a [*SyntaxError] with its line.
func ReadPNode(data []byte, n int, labels []string) (map[int]float64, error) {
	p := &pnodes{n: n, labels: labels, out: map[int]float64{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '=' })
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, &SyntaxError{Line: line, Msg: "want NODE PROBABILITY"}
		}
		if err := p.add(fields[0], fields[1]); err != nil {
			return nil, &SyntaxError{Line: line, Msg: err.Error()}
		}
	}
	return p.out, nil
}
