package format

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/domain"
)

// DomainP is one entry of a read-write JSON file's "domains": a failure
// domain and the probability that it is up.
type DomainP struct {
	Domain string
	P      *big.Rat
	Line   int
}

// readRWDomains reads the "nodes" and "domains" fields of a read-write
// JSON file into f, once its nodes are known:
//
//	"nodes": [{"node": 1, "domain": "eu/az-a"}, {"node": "b", "domain": "eu/az-b", "p": 0.99}],
//	"domains": [{"domain": "eu", "p": 0.9999}, {"domain": "eu/az-a", "p": "0.999"}]
//
// node is an id (1..n) or a label; p a number or a string such as "1/3".
// Whether the domains make sense together (every node placed, known
// names) is checked where the tree is built.
func readRWDomains(f *RWFile, top map[string]json.RawMessage, line func(string) int) error {
	if raw, ok := top["nodes"]; ok {
		ln := line("nodes")
		var rows []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &rows); err != nil {
			return errorf(ln, "nodes must be a list of objects such as {\"node\": 1, \"domain\": \"eu/az-a\"}")
		}
		seen := map[int]int{}
		for i, row := range rows {
			at := ln
			var a NodeAttrs
			a.Line = at
			id, ok := row["node"]
			if !ok {
				return errorf(at, "nodes[%d]: no \"node\"", i)
			}
			v, err := rwNode(f, id)
			if err != nil {
				return errorf(at, "nodes[%d]: %v", i, err)
			}
			if prev, dup := seen[v]; dup {
				return errorf(at, "nodes[%d]: node %d already described in nodes[%d]", i, v+1, prev)
			}
			seen[v] = i
			a.Node = v
			for key, val := range row {
				switch key {
				case "node":
				case "label":
					if json.Unmarshal(val, &a.Label) != nil {
						return errorf(at, "nodes[%d]: label must be a string", i)
					}
				case "domain":
					if json.Unmarshal(val, &a.Domain) != nil {
						return errorf(at, "nodes[%d]: domain must be a string", i)
					}
					if _, err := domain.ParsePath(a.Domain); err != nil {
						return errorf(at, "nodes[%d]: %v", i, err)
					}
				case "p":
					p, err := rwP(val)
					if err != nil {
						return errorf(at, "nodes[%d]: %v", i, err)
					}
					a.P = p
				default:
					return errorf(at, "nodes[%d]: unknown field %q (want node, label, domain, p)", i, key)
				}
			}
			f.Nodes = append(f.Nodes, a)
		}
	}
	if raw, ok := top["domains"]; ok {
		ln := line("domains")
		var rows []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &rows); err != nil {
			return errorf(ln, "domains must be a list of objects such as {\"domain\": \"eu\", \"p\": 0.999}")
		}
		for i, row := range rows {
			var d DomainP
			d.Line = ln
			for key, val := range row {
				switch key {
				case "domain":
					if json.Unmarshal(val, &d.Domain) != nil {
						return errorf(ln, "domains[%d]: domain must be a string", i)
					}
				case "p":
					p, err := rwP(val)
					if err != nil {
						return errorf(ln, "domains[%d]: %v", i, err)
					}
					d.P = p
				default:
					return errorf(ln, "domains[%d]: unknown field %q (want domain, p)", i, key)
				}
			}
			if _, err := domain.ParsePath(d.Domain); err != nil {
				return errorf(ln, "domains[%d]: %v", i, err)
			}
			if d.P == nil {
				return errorf(ln, "domains[%d]: no \"p\"", i)
			}
			f.Domains = append(f.Domains, d)
		}
	}
	return nil
}

// rwNode resolves a node given as an id or a label.
func rwNode(f *RWFile, raw json.RawMessage) (int, error) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		for v, l := range f.Labels {
			if l == name {
				return v, nil
			}
		}
		if id, err := strconv.Atoi(name); err == nil && id >= 1 && id <= f.N {
			return id - 1, nil
		}
		return 0, &unknownNode{name}
	}
	var id int
	if json.Unmarshal(raw, &id) != nil || id < 1 || id > f.N {
		return 0, &unknownNode{strings.TrimSpace(string(raw))}
	}
	return id - 1, nil
}

type unknownNode struct{ name string }

func (e *unknownNode) Error() string { return "unknown node " + e.name }

// rwP reads a probability given as a JSON number or a string ("0.999",
// "1/3"), exactly.
func rwP(raw json.RawMessage) (*big.Rat, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(bytes.TrimSpace(raw))
	}
	return domain.ParseP(s)
}
