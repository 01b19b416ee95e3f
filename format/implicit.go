package format

import (
	"errors"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// setImplicit reads the value of an "implicit" field or header: true or
// false.
func (hd *header) setImplicit(value string, line int) error {
	switch strings.TrimSpace(value) {
	case "true":
		hd.implicit = true
	case "false":
	default:
		return errorf(line, "implicit: want true or false, not %q", short(value))
	}
	return nil
}

// implicitJSON finishes a JSON file with "implicit": true: it holds no
// quorums, threshold, owners or arbiter levels.
func (hd *header) implicitJSON(top *level, hasArbiters bool) (set.System, error) {
	line := hd.seen["implicit"]
	switch {
	case hasArbiters:
		return set.System{}, errorf(line, "an implicit family has no \"arbiters\": its construction defines one list of quorums")
	case top.listed || top.threshold > 0 || len(top.owners) > 0:
		return set.System{}, errorf(line, "\"implicit\": true and quorums, threshold or owners both: an implicit family's construction defines its quorums, so the file lists none")
	}
	hd.levels = []*level{top}
	return hd.implicitSystem()
}

// implicitSystem checks an implicit family's header against the
// construction registry: the kind must be one that may be implicit, the
// params what its construction takes, and n the nodes they make.
func (hd *header) implicitSystem() (set.System, error) {
	line := hd.seen["implicit"]
	for _, l := range hd.levels {
		if l.qs.len() > 0 || l.threshold > 0 || l.h > 0 {
			return set.System{}, errorf(line, "\"implicit: true\" and quorums, threshold or levels both: an implicit family's construction defines its quorums, so the file lists none")
		}
	}
	if hd.kind == "" {
		return set.System{}, errorf(line, "an implicit family needs the kind of its construction")
	}
	if hd.k > 1 {
		return set.System{}, errorf(hd.seen["k"], "an implicit family is a coterie: k = %d", hd.k)
	}
	if hd.n == 0 {
		return set.System{}, errorf(line, "an implicit family needs n")
	}
	check := hd.budget.implicit
	if check == nil {
		return set.System{}, errorf(line, "an implicit %s family (defined by its kind and params, without quorums): this reader does not take implicit families", hd.kind)
	}
	f, err := check(hd.kind, hd.params)
	if err != nil {
		// An error naming a parameter points at the params, any other at
		// the kind.
		at, key := line, "kind"
		var pe interface{ Parameter() string }
		if errors.As(err, &pe) {
			key = "params"
		}
		if l, ok := hd.seen[key]; ok {
			at = l
		}
		msg := err.Error()
		var m interface{ Message() string }
		if errors.As(err, &m) {
			msg = m.Message()
		}
		return set.System{}, errorf(at, "%s", msg)
	}
	if hd.n != f.N {
		return set.System{}, errorf(hd.seen["n"], "n = %d, but %s %s has %d nodes", hd.n, hd.kind, paramsText(f.Params), f.N)
	}
	f.Labels = hd.labels
	if hd.labels != nil && len(hd.labels) != f.N {
		return set.System{}, errorf(hd.seen["labels"], "%d labels for %d nodes", len(hd.labels), f.N)
	}
	return set.System{Family: f}, nil
}

// paramsText formats params for a message.
func paramsText(p set.Params) string {
	s, err := encodeParams(p)
	if err != nil {
		return "?"
	}
	return s
}
