package systems

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// A minimal ZooKeeper client, enough for the real-software test: open a
// session and create one znode, over ZooKeeper's own wire protocol (jute
// records, each framed by a 4-byte big-endian length). Opening a session is
// itself a write the leader commits (createSession), and so is the create.

// zkCreate connects to addr, opens a session and creates a persistent
// sequential znode under path prefix; it returns nil when the create
// was acknowledged (committed by a quorum), else why not. Everything
// happens within timeout.
func zkCreate(addr, prefix string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	r := bufio.NewReader(conn)

	// ConnectRequest: protocolVersion, lastZxidSeen, timeOut, sessionId,
	// passwd (a 16-byte buffer), readOnly.
	var req bytes.Buffer
	zkPut32(&req, 0)
	zkPut64(&req, 0)
	zkPut32(&req, 4000)
	zkPut64(&req, 0)
	zkPutBuffer(&req, make([]byte, 16))
	req.WriteByte(0)
	if err := zkWriteFrame(conn, req.Bytes()); err != nil {
		return fmt.Errorf("connect request: %w", err)
	}
	resp, err := zkReadFrame(r)
	if err != nil {
		return fmt.Errorf("no session (the server is not serving): %w", err)
	}
	if len(resp) < 16 {
		return fmt.Errorf("short connect response")
	}
	if to := int32(binary.BigEndian.Uint32(resp[4:8])); to <= 0 {
		return fmt.Errorf("session refused")
	}

	// RequestHeader{xid, type=create(1)}, CreateRequest{path, data, acl
	// [world:anyone, all permissions], flags=PERSISTENT_SEQUENTIAL(2)}.
	req.Reset()
	zkPut32(&req, 1)
	zkPut32(&req, 1)
	zkPutString(&req, prefix)
	zkPutBuffer(&req, []byte("coterie"))
	zkPut32(&req, 1)
	zkPut32(&req, 31)
	zkPutString(&req, "world")
	zkPutString(&req, "anyone")
	zkPut32(&req, 2)
	if err := zkWriteFrame(conn, req.Bytes()); err != nil {
		return fmt.Errorf("create request: %w", err)
	}
	for {
		resp, err := zkReadFrame(r)
		if err != nil {
			return fmt.Errorf("no reply to the create: %w", err)
		}
		if len(resp) < 16 {
			return fmt.Errorf("short reply")
		}
		xid := int32(binary.BigEndian.Uint32(resp[0:4]))
		if xid != 1 { // a notification or a ping
			continue
		}
		if code := int32(binary.BigEndian.Uint32(resp[12:16])); code != 0 {
			return fmt.Errorf("create failed with ZooKeeper error %d", code)
		}
		return nil
	}
}

// zkMode asks the server at addr for its mode with the srvr four-letter
// word: "leader", "follower", "observer", or "" when it is not serving.
func zkMode(addr string, timeout time.Duration) string {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return ""
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := conn.Write([]byte("srvr")); err != nil {
		return ""
	}
	out, _ := io.ReadAll(io.LimitReader(conn, 1<<16))
	for _, line := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(line, "Mode: "); ok {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// zkMembership asks the server at addr for its configuration with the conf
// four-letter word and returns the membership it reports: its quorum
// verifier written out (server, group, weight and version lines).
func zkMembership(addr string, timeout time.Duration) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := conn.Write([]byte("conf")); err != nil {
		return "", err
	}
	out, err := io.ReadAll(io.LimitReader(conn, 1<<20))
	if err != nil {
		return "", err
	}
	_, m, ok := strings.Cut(string(out), "membership: \n")
	if !ok {
		return "", fmt.Errorf("no membership in conf's answer:\n%s", out)
	}
	return m, nil
}

func zkPut32(b *bytes.Buffer, v int32) { _ = binary.Write(b, binary.BigEndian, v) }
func zkPut64(b *bytes.Buffer, v int64) { _ = binary.Write(b, binary.BigEndian, v) }

func zkPutBuffer(b *bytes.Buffer, p []byte) {
	zkPut32(b, int32(len(p)))
	b.Write(p)
}

func zkPutString(b *bytes.Buffer, s string) { zkPutBuffer(b, []byte(s)) }

func zkWriteFrame(w io.Writer, p []byte) error {
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(p)))
	_, err := w.Write(append(head[:], p...))
	return err
}

func zkReadFrame(r io.Reader) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > 1<<20 {
		return nil, fmt.Errorf("a frame of %d bytes", n)
	}
	p := make([]byte, n)
	_, err := io.ReadFull(r, p)
	return p, err
}
