package wire

import "encoding/json"

// Part is the JSON of a part file, field for field in the order written.
type Part struct {
	Format      string          `json:"format"`
	Partial     bool            `json:"partial"`
	Kind        string          `json:"kind"`
	Shard       string          `json:"shard"`
	InputSHA256 string          `json:"input_sha256"`
	Options     json.RawMessage `json:"options"`
	Result      json.RawMessage `json:"result"`
}

// CheckpointHead is how every checkpoint file starts; a kind's
// checkpoint repeats these fields and adds its own.
type CheckpointHead struct {
	Format      string `json:"format"`
	Kind        string `json:"kind"`
	InputSHA256 string `json:"input_sha256"`
	Shard       string `json:"shard"`
}
