package systems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// jsonNode is a JSON value with the line it is on, so that a reader can name
// the line of what is wrong.
type jsonNode struct {
	line int
	kind byte // '{', '[', 's' string, 'n' number, 'b' bool, '0' null
	keys []string
	vals []*jsonNode // an object's values, in the order of keys
	elem []*jsonNode // an array's elements
	str  string
	num  json.Number
	b    bool
}

// get returns the value of key in an object, or nil.
func (v *jsonNode) get(key string) *jsonNode {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// maxJSONDepth bounds nesting: configurations are shallow.
const maxJSONDepth = 32

// parseJSONNodes reads one JSON value, refusing a key given twice in an
// object and anything after the value.
func parseJSONNodes(name string, data []byte) (*jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	// The line of a token is the line of its last byte: the offset after
	// it, less the trailing bytes that are not part of it.
	tokenLine := func() int {
		off := dec.InputOffset()
		if off > 0 {
			off--
		}
		return lineAt(off)
	}
	fail := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return syntaxErrorf(name, lineAt(se.Offset), "JSON: %v", se)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return syntaxErrorf(name, lineAt(int64(len(data))), "JSON: unexpected end of input")
		}
		return syntaxErrorf(name, tokenLine(), "JSON: %v", err)
	}
	var value func(depth int) (*jsonNode, error)
	value = func(depth int) (*jsonNode, error) {
		if depth > maxJSONDepth {
			return nil, syntaxErrorf(name, tokenLine(), "JSON nested deeper than %d", maxJSONDepth)
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		v := &jsonNode{line: tokenLine()}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				v.kind = '{'
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return nil, fail(err)
					}
					k := kt.(string)
					kline := tokenLine()
					for _, seen := range v.keys {
						if seen == k {
							return nil, syntaxErrorf(name, kline, "key %s given twice", strconv.Quote(k))
						}
					}
					val, err := value(depth + 1)
					if err != nil {
						return nil, err
					}
					if val.kind != '{' && val.kind != '[' {
						val.line = kline
					}
					v.keys = append(v.keys, k)
					v.vals = append(v.vals, val)
				}
			case '[':
				v.kind = '['
				for dec.More() {
					e, err := value(depth + 1)
					if err != nil {
						return nil, err
					}
					v.elem = append(v.elem, e)
				}
			default:
				return nil, syntaxErrorf(name, v.line, "JSON: unexpected %v", t)
			}
			if _, err := dec.Token(); err != nil { // the closing delimiter
				return nil, fail(err)
			}
		case string:
			v.kind, v.str = 's', t
		case json.Number:
			v.kind, v.num = 'n', t
		case bool:
			v.kind, v.b = 'b', t
		case nil:
			v.kind = '0'
		}
		return v, nil
	}
	root, err := value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, syntaxErrorf(name, tokenLine(), "unexpected data after the JSON value")
	}
	return root, nil
}

// jsonKindName names a JSON kind for messages.
func jsonKindName(k byte) string {
	return map[byte]string{'{': "an object", '[': "an array", 's': "a string", 'n': "a number", 'b': "a boolean", '0': "null"}[k]
}

// asInt reads a whole number, plain or in Extended JSON's wrappers
// ({"$numberInt": "1"}, {"$numberLong": "1"}, {"$numberDouble": "1.0"}).
func (v *jsonNode) asInt() (int64, error) {
	num := v.num
	if v.kind == '{' && len(v.keys) == 1 && v.vals[0].kind == 's' {
		switch v.keys[0] {
		case "$numberInt", "$numberLong", "$numberDouble", "$numberDecimal":
			num = json.Number(v.vals[0].str)
		}
	} else if v.kind != 'n' {
		return 0, fmt.Errorf("want a number, not %s", jsonKindName(v.kind))
	}
	if n, err := num.Int64(); err == nil {
		return n, nil
	}
	f, err := num.Float64()
	if err != nil || f != float64(int64(f)) {
		return 0, fmt.Errorf("want a whole number, not %s", num)
	}
	return int64(f), nil
}

// asFloat reads a number, plain or wrapped as in asInt.
func (v *jsonNode) asFloat() (float64, error) {
	num := v.num
	if v.kind == '{' && len(v.keys) == 1 && v.vals[0].kind == 's' {
		num = json.Number(v.vals[0].str)
	} else if v.kind != 'n' {
		return 0, fmt.Errorf("want a number, not %s", jsonKindName(v.kind))
	}
	f, err := num.Float64()
	if err != nil {
		return 0, fmt.Errorf("want a number, not %q", num)
	}
	return f, nil
}
