package systems

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// zookeeperFormat reads a ZooKeeper ensemble's quorum configuration: a
// zoo.cfg holding the server lines, or the dynamic configuration file
// (zoo.cfg.dynamic.*) ZooKeeper 3.5 and later keep them in.
//
// The nodes are the participants, in increasing order of server id, each
// labelled "server.N" as the file names it; observers never vote nor
// acknowledge a write, so they are not nodes (a note lists them). With no
// group.G and no weight.N line the rule is ZooKeeper's QuorumMaj: more than
// half of the participants. With them it is QuorumHierarchical: a
// participant's weight is weight.N (1 when not given), a group's weight the
// sum of its servers' weights, a group holds a majority when its live
// servers weigh more than half its weight (rounded down: W/2 in integer
// arithmetic), and live servers hold a quorum when more than half (rounded
// down) of the groups of non-zero weight hold a majority. A group of weight
// 0 never holds a majority and does not count among the groups. Each node's
// domain is its group ("group.G").
var zookeeperFormat = Format{
	Name:  "zookeeper",
	Sniff: sniffZooKeeper,
	Parse: parseZooKeeper,
}

// sniffZooKeeper claims files named like ZooKeeper's (zoo.cfg,
// zoo.cfg.dynamic.*) and files with a server.N= line among their first
// lines.
func sniffZooKeeper(name string, data []byte) bool {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if base == "zoo.cfg" || strings.HasPrefix(base, "zoo.cfg.dynamic") {
		return true
	}
	if len(data) > 1<<16 {
		data = data[:1<<16]
	}
	if !bytes.Contains(data, []byte("server.")) {
		return false // no server.N key: no need to split
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || line[0] == '!' {
			continue
		}
		key, _, ok := zkSplitProperty(string(line))
		if !ok {
			return false
		}
		if id, ok := strings.CutPrefix(key, "server."); ok {
			if _, err := strconv.ParseInt(id, 10, 64); err == nil {
				return true
			}
		}
	}
	return false
}

// ZooKeeper is a ZooKeeper ensemble's quorum configuration: the
// participants (the nodes, 0-based here) with their server ids, and, for a
// hierarchical configuration, their groups and weights.
type ZooKeeper struct {
	// IDs holds each participant's server id, in increasing order.
	IDs []int64
	// Groups is nil for a majority configuration (QuorumMaj); otherwise
	// each group's nodes (indices into IDs) and GroupIDs its group ids.
	Groups   [][]int
	GroupIDs []int64
	// Weights holds each node's weight; nil for a majority configuration.
	Weights []int64
}

// Hierarchical reports whether the configuration uses groups and weights.
func (z *ZooKeeper) Hierarchical() bool { return z.Groups != nil }

// Has reports whether the live nodes hold a quorum, as ZooKeeper's
// QuorumMaj or QuorumHierarchical decides containsQuorum.
func (z *ZooKeeper) Has(live *set.Set) bool {
	if !z.Hierarchical() {
		return live.Len() > len(z.IDs)/2
	}
	counted, majorities := 0, 0
	for _, g := range z.Groups {
		var total, up int64
		for _, v := range g {
			total += z.Weights[v]
			if live.Has(v) {
				up += z.Weights[v]
			}
		}
		if total == 0 {
			continue
		}
		counted++
		if up > total/2 {
			majorities++
		}
	}
	return majorities > counted/2
}

// Rule returns the configuration as a quorum rule labelled "server.N".
func (z *ZooKeeper) Rule() *quorum.Rule {
	labels := make([]string, len(z.IDs))
	for i, id := range z.IDs {
		labels[i] = "server." + strconv.FormatInt(id, 10)
	}
	params := set.Params{"rule": "majority"}
	if z.Hierarchical() {
		params = set.Params{"rule": "hierarchical", "groups": z.groupsParam(), "weights": zkJoin(z.Weights, ",")}
	}
	return &quorum.Rule{Nodes: len(z.IDs), NodeNames: labels, Kind: "zookeeper", Params: params, Has: z.Has}
}

// groupsParam writes the groups as 1-based node numbers, the nodes of a
// group separated by ":" and the groups by "/".
func (z *ZooKeeper) groupsParam() string {
	var b strings.Builder
	for i, g := range z.Groups {
		if i > 0 {
			b.WriteByte('/')
		}
		for j, v := range g {
			if j > 0 {
				b.WriteByte(':')
			}
			b.WriteString(strconv.Itoa(v + 1))
		}
	}
	return b.String()
}

func zkJoin(xs []int64, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, sep)
}

// zkKnownSettings are the zoo.cfg keys that say nothing about quorums:
// ZooKeeper's own settings (QuorumPeerConfig and the administrator's guide)
// and the prefixes of families of them. coterie ignores them; any other
// key is an error, because ZooKeeper would quietly turn it into a Java
// system property, so a misspelt group or weight line would be lost.
var zkKnownSettings = map[string]bool{
	"dataDir": true, "dataLogDir": true, "clientPort": true, "clientPortAddress": true,
	"secureClientPort": true, "secureClientPortAddress": true, "observerMasterPort": true,
	"clientPortListenBacklog": true, "tickTime": true, "maxClientCnxns": true,
	"minSessionTimeout": true, "maxSessionTimeout": true, "initLimit": true, "syncLimit": true,
	"connectToLearnerMasterLimit": true, "electionAlg": true, "quorumListenOnAllIPs": true,
	"peerType": true, "syncEnabled": true, "standaloneEnabled": true, "reconfigEnabled": true,
	"sslQuorum": true, "portUnification": true, "sslQuorumReloadCertFiles": true,
	"localSessionsEnabled": true, "localSessionsUpgradingEnabled": true, "oraclePath": true,
	"quorum.cnxn.threads.size": true, "quorum.auth.enableSasl": true,
	"quorum.auth.serverRequireSasl": true, "quorum.auth.learnerRequireSasl": true,
	"quorum.auth.learner.saslLoginContext": true, "quorum.auth.server.saslLoginContext": true,
	"quorum.auth.kerberos.servicePrincipal": true, "jvm.pause.info-threshold.ms": true,
	"jvm.pause.warn-threshold.ms": true, "jvm.pause.sleep.time.ms": true, "jvm.pause.monitor": true,
	"snapCount": true, "snapSizeLimitInKb": true, "txnLogSizeLimitInKb": true, "preAllocSize": true,
	"globalOutstandingLimit": true, "commitLogCount": true, "forceSync": true, "fsync.warningthresholdms": true,
	"jute.maxbuffer": true, "skipACL": true, "leaderServes": true, "cnxTimeout": true,
	"electionPortBindRetry": true, "serverCnxnFactory": true, "maxResponseCacheSize": true,
	"maxGetChildrenResponseCacheSize": true, "maxBatchSize": true, "maxWriteQueuePollTime": true,
	"requestThrottleLimit": true, "requestThrottleStallTime": true, "requestThrottleDropStale": true,
	"requestStaleLatencyCheck": true, "requestStaleConnectionCheck": true, "watchManagerName": true,
	"digest.enabled": true, "snapshot.trust.empty": true, "audit.enable": true,
	"enforceQuota": true, "learner.closeSocketAsync": true, "leader.closeSocketAsync": true,
	"flushDelay": true, "maxConcurrentSnapSyncs": true, "maxConcurrentDiffSyncs": true,
	"initialConfig": true, "clientCnxnSocket": true, "closeSessionTxn.enabled": true,
	"serializeLastProcessedZxid.enabled": true, "netty.server.outstandingHandshake.limit": true,
	"znodeGroupAclSupport": true, "enforce.auth.enabled": true, "enforce.auth.schemes": true,
	"sessionRequireClientSASLAuth": true, "X509AuthenticationProvider.superUser": true,
	"dynamicConfigFile": true, "version": true,
}

var zkKnownPrefixes = []string{
	"autopurge.", "metricsProvider.", "multiAddress.", "ssl.", "ssl.quorum.", "admin.",
	"4lw.", "authProvider.", "zookeeper.", "kerberos.", "fips-mode", "sasl.",
	"throttledOpWaitTime", "connectionMaxTokens", "connectionTokenFillTime",
	"connectionTokenFillCount", "connectionFreezeTime", "connectionDropIncrease",
	"connectionDropDecrease", "connectionDecreaseRatio", "largeRequestMaxBytes",
	"largeRequestThreshold", "outstandingHandshake.limit", "jute.",
}

func zkKnownSetting(key string) bool {
	if zkKnownSettings[key] {
		return true
	}
	for _, p := range zkKnownPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// splitProperty splits a java.util.Properties line into key and value: the
// key ends at the first '=', ':' or blank, and one '=' or ':' (with blanks
// around it) separates it from the value.
func zkSplitProperty(line string) (key, value string, ok bool) {
	i := strings.IndexAny(line, "=: \t\f")
	if i < 0 {
		return line, "", true
	}
	key = line[:i]
	rest := strings.TrimLeft(line[i:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return key, strings.TrimRight(rest, " \t\f\r"), key != ""
}

type zkServerLine struct {
	id       int64
	line     int
	observer bool
	weight   int64
	wline    int // the weight.N line, or 0
	group    int // index into groups, or -1
}

type zkGroupLine struct {
	id      int64
	line    int
	members []int64
}

// parseZooKeeper reads a zoo.cfg or a dynamic configuration file.
func parseZooKeeper(name string, data []byte) (*Config, error) {
	var (
		servers   []*zkServerLine
		byID      = map[int64]*zkServerLine{}
		groups    []*zkGroupLine
		groupIDs  = map[int64]int{}
		weights   = map[int64]int64{}
		wlines    = map[int64]int{}
		dynamic   string
		dynLine   int
		hierLine  int
		peerNotes []Note
	)
	// ZooKeeper's dynamic file holds nothing but server, group, weight
	// and version lines.
	dynamicFile := strings.HasPrefix(path.Base(strings.ReplaceAll(name, "\\", "/")), "zoo.cfg.dynamic")
	for i, raw := range strings.Split(string(data), "\n") {
		ln := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			return nil, syntaxErrorf(name, ln, "a line continued with \\ is not read: join it into one line")
		}
		key, value, ok := zkSplitProperty(line)
		if !ok {
			return nil, syntaxErrorf(name, ln, "want key=value, got %q", zkClip(line))
		}
		switch {
		case strings.HasPrefix(key, "server."):
			id, err := zkID(key, "server.")
			if err != nil {
				return nil, syntaxErrorf(name, ln, "%v", err)
			}
			if old, dup := byID[id]; dup {
				return nil, syntaxErrorf(name, ln, "server.%d is defined twice (first at line %d)", id, old.line)
			}
			observer, err := zkServerRole(value)
			if err != nil {
				return nil, syntaxErrorf(name, ln, "server.%d: %v", id, err)
			}
			s := &zkServerLine{id: id, line: ln, observer: observer, weight: 1, group: -1}
			servers = append(servers, s)
			byID[id] = s
		case strings.HasPrefix(key, "group"):
			id, err := zkID(key, "group.")
			if err != nil {
				return nil, syntaxErrorf(name, ln, "%v", err)
			}
			if first, dup := groupIDs[id]; dup {
				return nil, syntaxErrorf(name, ln, "group.%d is defined twice (first at line %d)", id, groups[first].line)
			}
			g := &zkGroupLine{id: id, line: ln}
			for _, f := range strings.Split(value, ":") {
				sid, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
				if err != nil || sid < 0 {
					return nil, syntaxErrorf(name, ln, "group.%d: %q is not a server id (want ids separated by ':', such as 1:2:3)", id, zkClip(f))
				}
				if slices.Contains(g.members, sid) {
					return nil, syntaxErrorf(name, ln, "group.%d names server %d twice", id, sid)
				}
				g.members = append(g.members, sid)
			}
			groupIDs[id] = len(groups)
			groups = append(groups, g)
			if hierLine == 0 {
				hierLine = ln
			}
		case strings.HasPrefix(key, "weight"):
			id, err := zkID(key, "weight.")
			if err != nil {
				return nil, syntaxErrorf(name, ln, "%v", err)
			}
			if first, dup := wlines[id]; dup {
				return nil, syntaxErrorf(name, ln, "weight.%d is given twice (first at line %d)", id, first)
			}
			w, err := strconv.ParseInt(value, 10, 64)
			if err != nil || w < 0 || w > 1<<32 {
				return nil, syntaxErrorf(name, ln, "weight.%d: %q is not a weight (want an integer from 0 to 2^32)", id, zkClip(value))
			}
			weights[id], wlines[id] = w, ln
			if hierLine == 0 {
				hierLine = ln
			}
		case key == "dynamicConfigFile":
			dynamic, dynLine = value, ln
		case key == "peerType":
			peerNotes = append(peerNotes, Note{Line: ln, Text: "peerType is the running server's own role; the server lines decide each server's role"})
		case dynamicFile && key != "version":
			return nil, syntaxErrorf(name, ln, "%q in a dynamic configuration file: ZooKeeper allows only server.N, group.G, weight.N and version there", zkClip(key))
		case zkKnownSetting(key):
			// A setting that does not bear on quorums.
		default:
			return nil, syntaxErrorf(name, ln, "unknown key %q: not a ZooKeeper setting coterie knows (ZooKeeper would pass it on as the Java system property zookeeper.%s)", zkClip(key), zkClip(key))
		}
	}
	if len(servers) == 0 {
		if dynamic != "" {
			return nil, syntaxErrorf(name, dynLine, "the servers are in the dynamic configuration file %s: read that file", dynamic)
		}
		return nil, syntaxErrorf(name, 0, "no server.N line: a ZooKeeper ensemble needs its servers")
	}
	if dynamic != "" {
		return nil, syntaxErrorf(name, dynLine, "dynamicConfigFile is set, so ZooKeeper refuses server, group and weight lines in this file (line %d): move them to %s", servers[0].line, dynamic)
	}
	// Groups and weights name servers.
	for gi, g := range groups {
		for _, sid := range g.members {
			s, ok := byID[sid]
			if !ok {
				return nil, syntaxErrorf(name, g.line, "group.%d names server %d, which no server line defines", g.id, sid)
			}
			if s.group >= 0 {
				return nil, syntaxErrorf(name, g.line, "server %d is in two groups: group.%d (line %d) and group.%d", sid, groups[s.group].id, groups[s.group].line, g.id)
			}
			if s.observer {
				return nil, syntaxErrorf(name, g.line, "group.%d names server %d, an observer: observers never count, and in a group an observer's weight would only weigh the group down", g.id, sid)
			}
			s.group = gi
		}
	}
	for sid, w := range weights {
		s, ok := byID[sid]
		if !ok {
			return nil, syntaxErrorf(name, wlines[sid], "weight.%d: no server line defines server %d", sid, sid)
		}
		if s.group < 0 {
			return nil, syntaxErrorf(name, wlines[sid], "weight.%d: server %d is in no group, so its weight would count nowhere", sid, sid)
		}
		s.weight, s.wline = w, wlines[sid]
	}
	slices.SortFunc(servers, func(a, b *zkServerLine) int { return zkCmp(a.id, b.id) })
	z := &ZooKeeper{}
	node := map[int64]int{}
	var notes, observers []Note
	for _, s := range servers {
		if s.observer {
			observers = append(observers, Note{Line: s.line, Text: fmt.Sprintf("server.%d is an observer: it never votes nor acknowledges a write, so it is not a node here", s.id)})
			continue
		}
		if hierLine > 0 && s.group < 0 {
			return nil, syntaxErrorf(name, s.line, "server.%d is a participant in no group: with groups (line %d) ZooKeeper refuses it", s.id, hierLine)
		}
		node[s.id] = len(z.IDs)
		z.IDs = append(z.IDs, s.id)
	}
	n := len(z.IDs)
	if n == 0 {
		return nil, syntaxErrorf(name, servers[0].line, "every server is an observer: an ensemble needs participants")
	}
	if n > set.MaxNodes {
		return nil, syntaxErrorf(name, 0, "%d participants: more than %d", n, set.MaxNodes)
	}
	cfg := &Config{System: "zookeeper"}
	if hierLine > 0 {
		z.Weights = make([]int64, n)
		cfg.Domains = make([]string, n)
		nonzero := 0
		for _, g := range groups {
			var members []int
			var total int64
			for _, sid := range g.members {
				v := node[sid]
				members = append(members, v)
				s := byID[sid]
				z.Weights[v] = s.weight
				total += s.weight
				cfg.Domains[v] = "group." + strconv.FormatInt(g.id, 10)
				if s.weight == 0 && s.wline > 0 {
					notes = append(notes, Note{Line: s.wline, Text: fmt.Sprintf("server.%d has weight 0: it never counts", sid)})
				}
			}
			slices.Sort(members)
			z.Groups = append(z.Groups, members)
			z.GroupIDs = append(z.GroupIDs, g.id)
			if total == 0 {
				notes = append([]Note{{Line: g.line, Text: fmt.Sprintf("group.%d has weight 0: its servers never count, and it is not one of the groups a quorum needs a majority of", g.id)}}, notes...)
			} else {
				nonzero++
			}
		}
		if nonzero == 0 {
			return nil, syntaxErrorf(name, groups[0].line, "every group has weight 0: no set of servers holds a quorum")
		}
		if nonzero%2 == 0 {
			notes = append(notes, Note{Text: fmt.Sprintf("%d groups of non-zero weight: a quorum needs %d of them, as it would of %d groups", nonzero, nonzero/2+1, nonzero+1)})
		}
	} else if n > 1 && n%2 == 0 {
		notes = append(notes, Note{Text: fmt.Sprintf("an even number of participants (%d) survives no more failures than %d", n, n-1)})
	}
	if n == 1 {
		notes = append(notes, Note{Line: servers[0].line, Text: "one participant: ZooKeeper runs it standalone, and it survives no failure"})
	}
	notes = append(notes, observers...)
	notes = append(notes, peerNotes...)
	r := z.Rule()
	cfg.Labels, cfg.Reads, cfg.Writes, cfg.Notes = r.NodeNames, r, r, notes
	return cfg, nil
}

// zkID reads the id after prefix in a key such as server.3.
func zkID(key, prefix string) (int64, error) {
	s, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return 0, fmt.Errorf("unknown key %q (want %sN with N a number)", zkClip(key), prefix)
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("%q: %q is not an id (want %sN with N a non-negative integer)", zkClip(key), zkClip(s), prefix)
	}
	return id, nil
}

// zkServerRole checks a server line's value,
// host:port:port[:role][|host:port:port[:role]...][;[host:]port[;...]],
// and reports whether it makes the server an observer.
func zkServerRole(value string) (observer bool, err error) {
	addrs, _, _ := strings.Cut(value, ";")
	role := ""
	for _, a := range strings.Split(addrs, "|") {
		parts, err := zkHostPort(strings.TrimSpace(a))
		if err != nil {
			return false, err
		}
		if len(parts) < 3 || len(parts) > 4 {
			return false, fmt.Errorf("%q: want host:port:port or host:port:port:participant|observer", zkClip(a))
		}
		for _, p := range parts[1:3] {
			if port, err := strconv.Atoi(p); err != nil || port < 0 || port > 65535 {
				return false, fmt.Errorf("%q: %q is not a port", zkClip(a), zkClip(p))
			}
		}
		if parts[1] == parts[2] {
			return false, fmt.Errorf("%q: the quorum and election ports must differ", zkClip(a))
		}
		r := "participant"
		if len(parts) == 4 {
			r = strings.ToLower(parts[3])
			if r != "participant" && r != "observer" {
				return false, fmt.Errorf("role %q: want participant or observer", zkClip(parts[3]))
			}
		}
		if role != "" && r != role {
			return false, fmt.Errorf("its addresses have different roles (%s and %s)", role, r)
		}
		role = r
	}
	return role == "observer", nil
}

// zkHostPort splits host:port:... where the host may be a bracketed IPv6
// address.
func zkHostPort(s string) ([]string, error) {
	if strings.HasPrefix(s, "[") {
		end := strings.Index(s, "]")
		if end < 0 {
			return nil, fmt.Errorf("%q: unclosed [", zkClip(s))
		}
		host, rest := s[1:end], s[end+1:]
		if rest == "" {
			return []string{host}, nil
		}
		if rest[0] != ':' {
			return nil, fmt.Errorf("%q: want ':' after ]", zkClip(s))
		}
		return append([]string{host}, strings.Split(rest[1:], ":")...), nil
	}
	parts := strings.Split(s, ":")
	if parts[0] == "" {
		return nil, fmt.Errorf("%q: no host", zkClip(s))
	}
	return parts, nil
}

func zkCmp(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// clip shortens what an error quotes from the input.
func zkClip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
