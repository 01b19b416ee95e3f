package systems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// etcdFormat reads the membership of an etcd cluster, or of any Raft
// group, in one of two forms:
//
//   - the JSON that `etcdctl member list -w json` prints: its "members",
//     each with an "ID", a "name" and "isLearner" (true for a learner);
//
//   - a plain text form, one key per line, names separated by blanks or
//     commas, "#" starting a comment:
//
//     voters: a b c d e
//     learners: f
//
//     or, for a cluster caught in joint consensus during a membership
//     change, the old and the new voters:
//
//     old: a b c
//     new: b c d e
//     learners: f
//
// The nodes are the voters (for a joint configuration, the old voters
// then the new ones not among them), labelled by name; a member without
// a name (added but never started) is labelled by its ID in hexadecimal,
// as etcdctl prints it. Learners replicate the log but never vote nor
// count towards a commit, so they are not nodes (a note lists them). A
// quorum is more than half of the voters; in joint consensus, more than
// half of the old voters and more than half of the new ones.
var etcdFormat = Format{
	Name:  "etcd",
	Sniff: sniffEtcd,
	Parse: parseEtcd,
}

// sniffEtcd claims etcdctl's JSON (a "members" list with etcd's
// "peerURLs", "clientURLs" or "isLearner") and text whose first line
// that is not a comment is a voters:, old:, new: or learners: line.
func sniffEtcd(_ string, data []byte) bool {
	if len(data) > 1<<16 {
		data = data[:1<<16]
	}
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '{' {
		return bytes.Contains(t, []byte(`"members"`)) &&
			(bytes.Contains(t, []byte(`"peerURLs"`)) || bytes.Contains(t, []byte(`"clientURLs"`)) || bytes.Contains(t, []byte(`"isLearner"`)))
	}
	for len(t) > 0 {
		// Line by line, without splitting the whole: the first line that
		// is not a comment decides.
		line := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			line, t = t[:i], t[i+1:]
		} else {
			t = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return false
		}
		_, known := etcdTextKeys[string(bytes.TrimSpace(key))]
		return known
	}
	return false
}

var etcdTextKeys = map[string]bool{"voters": true, "learners": true, "old": true, "new": true}

// Raft is a Raft group's membership: its voters (old and new in joint
// consensus) and learners, by name.
type Raft struct {
	// Voters are the nodes: every voter, old ones first in joint
	// consensus.
	Voters []string
	// Old and New are nil, or the nodes (indices into Voters) of the old
	// and the new configuration in joint consensus.
	Old, New []int
	// Learners never count.
	Learners []string
}

// Joint reports whether the group is in joint consensus.
func (r *Raft) Joint() bool { return r.Old != nil }

// Has reports whether the live nodes hold a quorum: a majority of the
// voters, or in joint consensus a majority of the old voters and a
// majority of the new ones.
func (r *Raft) Has(live *set.Set) bool {
	if !r.Joint() {
		return live.Len() > len(r.Voters)/2
	}
	return raftMajority(r.Old, live) && raftMajority(r.New, live)
}

func raftMajority(nodes []int, live *set.Set) bool {
	up := 0
	for _, v := range nodes {
		if live.Has(v) {
			up++
		}
	}
	return up > len(nodes)/2
}

// Rule returns the membership as a quorum rule labelled by the voters'
// names.
func (r *Raft) Rule() *quorum.Rule {
	params := set.Params{"rule": "majority"}
	if r.Joint() {
		params = set.Params{"rule": "joint", "old": raftNodes(r.Old), "new": raftNodes(r.New)}
	}
	return &quorum.Rule{Nodes: len(r.Voters), NodeNames: slices.Clone(r.Voters), Kind: "etcd", Params: params, Has: r.Has}
}

// raftNodes writes 1-based node numbers separated by commas.
func raftNodes(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v + 1)
	}
	return strings.Join(s, ",")
}

// config returns the membership as a configuration, with its notes.
func (r *Raft) config() *Config {
	rule := r.Rule()
	c := &Config{System: "etcd", Labels: rule.NodeNames, Reads: rule, Writes: rule}
	if r.Joint() {
		c.Notes = append(c.Notes, Note{Text: fmt.Sprintf("joint consensus: a quorum needs %d of the %d old voters and %d of the %d new ones",
			len(r.Old)/2+1, len(r.Old), len(r.New)/2+1, len(r.New))})
	} else if n := len(r.Voters); n > 1 && n%2 == 0 {
		c.Notes = append(c.Notes, Note{Text: fmt.Sprintf("an even number of voters (%d) survives no more failures than %d", n, n-1)})
	}
	for _, l := range r.Learners {
		c.Notes = append(c.Notes, Note{Text: fmt.Sprintf("%s is a learner: it never votes nor counts towards a commit, so it is not a node here", l)})
	}
	return c
}

func parseEtcd(name string, data []byte) (*Config, error) {
	r, notes, err := readRaft(name, data)
	if err != nil {
		return nil, err
	}
	c := r.config()
	c.Notes = append(c.Notes, notes...)
	return c, nil
}

// readRaft reads either form, with notes on what the file says beyond
// the membership.
func readRaft(name string, data []byte) (*Raft, []Note, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return parseEtcdJSON(name, data)
	}
	r, err := parseEtcdText(name, data)
	return r, nil, err
}

// parseEtcdText reads the plain text form.
func parseEtcdText(name string, data []byte) (*Raft, error) {
	lists := map[string][]string{}
	lineOf := map[string]int{}
	seenAt := map[string]map[string]int{} // key -> name -> line
	for i, raw := range strings.Split(string(data), "\n") {
		ln := i + 1
		line := raw
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, rest, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if !ok || !etcdTextKeys[key] {
			return nil, syntaxErrorf(name, ln, "want voters:, learners:, old: or new: followed by names, got %q", zkClip(line))
		}
		if first, dup := lineOf[key]; dup {
			return nil, syntaxErrorf(name, ln, "%s: given twice (first at line %d): list every name on one line", key, first)
		}
		lineOf[key] = ln
		seenAt[key] = map[string]int{}
		names := strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })
		for _, nm := range names {
			if _, dup := seenAt[key][nm]; dup {
				return nil, syntaxErrorf(name, ln, "%s: %q is listed twice", key, zkClip(nm))
			}
			seenAt[key][nm] = ln
		}
		lists[key] = names
	}
	_, hasVoters := lineOf["voters"]
	_, hasOld := lineOf["old"]
	_, hasNew := lineOf["new"]
	switch {
	case hasVoters && (hasOld || hasNew):
		other := "old"
		if !hasOld {
			other = "new"
		}
		return nil, syntaxErrorf(name, lineOf[other], "%s: with voters: (line %d): give either voters, or old and new voters in joint consensus", other, lineOf["voters"])
	case hasOld != hasNew:
		if hasOld {
			return nil, syntaxErrorf(name, lineOf["old"], "old: without new: joint consensus needs both the old and the new voters")
		}
		return nil, syntaxErrorf(name, lineOf["new"], "new: without old: joint consensus needs both the old and the new voters")
	case !hasVoters && !hasOld:
		return nil, syntaxErrorf(name, 0, "no voters: line (nor old: and new: lines): a Raft group needs voters")
	}
	r := &Raft{}
	index := map[string]int{}
	add := func(nm string) int {
		if v, ok := index[nm]; ok {
			return v
		}
		index[nm] = len(r.Voters)
		r.Voters = append(r.Voters, nm)
		return index[nm]
	}
	if hasVoters {
		if len(lists["voters"]) == 0 {
			return nil, syntaxErrorf(name, lineOf["voters"], "voters: no names")
		}
		for _, nm := range lists["voters"] {
			add(nm)
		}
	} else {
		for _, key := range []string{"old", "new"} {
			if len(lists[key]) == 0 {
				return nil, syntaxErrorf(name, lineOf[key], "%s: no names", key)
			}
			var nodes []int
			for _, nm := range lists[key] {
				nodes = append(nodes, add(nm))
			}
			if key == "old" {
				r.Old = nodes
			} else {
				r.New = nodes
			}
		}
	}
	for _, nm := range lists["learners"] {
		if _, voter := index[nm]; voter {
			return nil, syntaxErrorf(name, lineOf["learners"], "%q is a learner and a voter: a member is one or the other", zkClip(nm))
		}
		r.Learners = append(r.Learners, nm)
	}
	if len(r.Voters) > set.MaxNodes {
		return nil, syntaxErrorf(name, 0, "%d voters: more than %d", len(r.Voters), set.MaxNodes)
	}
	return r, nil
}

// etcdMember is one member of etcdctl's JSON.
type etcdMember struct {
	ID         json.Number `json:"ID"`
	Name       string      `json:"name"`
	PeerURLs   []string    `json:"peerURLs"`
	ClientURLs []string    `json:"clientURLs"`
	IsLearner  bool        `json:"isLearner"`
}

// parseEtcdJSON reads `etcdctl member list -w json`.
func parseEtcdJSON(name string, data []byte) (*Raft, []Note, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	fail := func(err error) error {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return syntaxErrorf(name, etcdLineAt(data, se.Offset), "%v", err)
		case errors.As(err, &te):
			return syntaxErrorf(name, etcdLineAt(data, te.Offset), "%v", err)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return syntaxErrorf(name, etcdLineAt(data, int64(len(data))), "unexpected end of the JSON")
		}
		return syntaxErrorf(name, etcdLineAt(data, dec.InputOffset()), "%v", err)
	}
	if tok, err := dec.Token(); err != nil {
		return nil, nil, fail(err)
	} else if tok != json.Delim('{') {
		return nil, nil, syntaxErrorf(name, 1, "want a JSON object with the members, as `etcdctl member list -w json` prints")
	}
	var members []etcdMember
	var lines []int
	sawMembers := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fail(err)
		}
		key, _ := tok.(string)
		switch key {
		case "members":
			if sawMembers {
				return nil, nil, syntaxErrorf(name, etcdLineAt(data, dec.InputOffset()), `"members" is given twice`)
			}
			sawMembers = true
			if tok, err := dec.Token(); err != nil {
				return nil, nil, fail(err)
			} else if tok != json.Delim('[') {
				return nil, nil, syntaxErrorf(name, etcdLineAt(data, dec.InputOffset()), `"members": want a list`)
			}
			for dec.More() {
				line := etcdLineAt(data, etcdNextToken(data, dec.InputOffset()))
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return nil, nil, fail(err)
				}
				var m etcdMember
				md := json.NewDecoder(bytes.NewReader(raw))
				md.UseNumber()
				md.DisallowUnknownFields()
				if err := md.Decode(&m); err != nil {
					return nil, nil, syntaxErrorf(name, line, "member: %v", err)
				}
				members = append(members, m)
				lines = append(lines, line)
			}
			if _, err := dec.Token(); err != nil {
				return nil, nil, fail(err)
			}
		case "header":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, fail(err)
			}
		default:
			return nil, nil, syntaxErrorf(name, etcdLineAt(data, dec.InputOffset()), "unknown key %q (want header and members, as `etcdctl member list -w json` prints)", zkClip(key))
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fail(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, syntaxErrorf(name, etcdLineAt(data, dec.InputOffset()), "more after the JSON object")
	}
	if !sawMembers {
		return nil, nil, syntaxErrorf(name, 0, `no "members": want the JSON of etcdctl member list -w json`)
	}
	r := &Raft{}
	ids := map[uint64]int{}
	names := map[string]int{}
	for i, m := range members {
		id, err := strconv.ParseUint(m.ID.String(), 10, 64)
		if err != nil || id == 0 {
			return nil, nil, syntaxErrorf(name, lines[i], "member ID %q: want a positive integer", zkClip(m.ID.String()))
		}
		if first, dup := ids[id]; dup {
			return nil, nil, syntaxErrorf(name, lines[i], "member ID %x is listed twice (first at line %d)", id, lines[first])
		}
		ids[id] = i
		if m.Name != "" {
			if first, dup := names[m.Name]; dup {
				return nil, nil, syntaxErrorf(name, lines[i], "member name %q is used twice (first at line %d)", zkClip(m.Name), lines[first])
			}
			names[m.Name] = i
		}
	}
	var unstarted []string
	for _, m := range members {
		id, _ := strconv.ParseUint(m.ID.String(), 10, 64)
		label := m.Name
		if label == "" {
			label = strconv.FormatUint(id, 16)
			unstarted = append(unstarted, label)
		}
		if m.IsLearner {
			r.Learners = append(r.Learners, label)
		} else {
			r.Voters = append(r.Voters, label)
		}
	}
	if len(r.Voters) == 0 {
		return nil, nil, syntaxErrorf(name, 0, "no voting member: every member is a learner")
	}
	var notes []Note
	for _, u := range unstarted {
		notes = append(notes, Note{Text: fmt.Sprintf("member %s has no name: it was added but has never started, and while it is down it counts as a failed voter", u)})
	}
	return r, notes, nil
}

// etcdNextToken returns the offset of the first byte at or after off that is
// not JSON whitespace or a comma.
func etcdNextToken(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}

// etcdLineAt returns the 1-based line of the byte at offset off.
func etcdLineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// Write writes the membership in the plain text form etcdFormat reads. It
// refuses a name that form cannot hold (empty, or with a blank, a comma
// or a '#').
func (r *Raft) Write(w io.Writer) error {
	for _, nm := range append(slices.Clone(r.Voters), r.Learners...) {
		if nm == "" || strings.ContainsAny(nm, " \t\r\n,#") {
			return fmt.Errorf("systems: etcd: the name %q cannot be written in the text form", nm)
		}
	}
	var b strings.Builder
	names := func(nodes []int) string {
		s := make([]string, len(nodes))
		for i, v := range nodes {
			s[i] = r.Voters[v]
		}
		return strings.Join(s, " ")
	}
	if r.Joint() {
		fmt.Fprintf(&b, "old: %s\nnew: %s\n", names(r.Old), names(r.New))
	} else {
		fmt.Fprintf(&b, "voters: %s\n", strings.Join(r.Voters, " "))
	}
	if len(r.Learners) > 0 {
		fmt.Fprintf(&b, "learners: %s\n", strings.Join(r.Learners, " "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
