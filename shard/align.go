package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// OptionsError is the error of [Align]: part Name (shard Shard) was run
// with option Key set to Got where part FirstName (shard FirstShard) has
// Want (compact JSON; "absent" when the part has no such option).
type OptionsError struct {
	Name, Shard           string
	FirstName, FirstShard string
	Key, Got, Want        string
}

func (e *OptionsError) Error() string {
	return fmt.Sprintf("shard: %s (shard %s) was run with other options than %s (shard %s): %s %s, not %s",
		e.Name, e.Shard, e.FirstName, e.FirstShard, e.Key, e.Got, e.Want)
}

// Align compares the options (JSON objects) of parts of one kind and
// input with those of the first, key by key, before [Check]: a difference
// in a key that matters is an *[OptionsError] naming the key and both
// values; a difference only in keys for which presentation is true (they
// change how a merge prints, never what it finds, such as the name of
// the input file or the output format) is dropped, the first part's
// options kept. names label the parts. Parts of other kinds or inputs,
// and options that are not objects, are left for Check to refuse.
func Align(parts []*Part, names []string, presentation func(key string) bool) error {
	if len(parts) < 2 {
		return nil
	}
	first := parts[0]
	var want map[string]json.RawMessage
	if json.Unmarshal(first.Options, &want) != nil {
		return nil
	}
	for i, p := range parts[1:] {
		if p.Kind != first.Kind || p.InputSHA256 != first.InputSHA256 {
			continue
		}
		var got map[string]json.RawMessage
		if json.Unmarshal(p.Options, &got) != nil {
			continue
		}
		keys := make([]string, 0, len(want)+len(got))
		for k := range want {
			keys = append(keys, k)
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if presentation(k) {
				continue
			}
			a, b := compactValue(want[k]), compactValue(got[k])
			if a != b {
				return &OptionsError{Name: names[i+1], Shard: p.Shard, FirstName: names[0], FirstShard: first.Shard, Key: k, Got: b, Want: a}
			}
		}
		p.Options = first.Options
	}
	return nil
}

// compactValue is v without insignificant spaces ("absent" when missing).
func compactValue(v json.RawMessage) string {
	if v == nil {
		return "absent"
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}
