package systems

// fpaxosFormat is not read yet.
var fpaxosFormat = Format{
	Name:  "fpaxos",
	Sniff: func(string, []byte) bool { return false },
	Parse: func(name string, _ []byte) (*Config, error) {
		return nil, syntaxErrorf(name, 0, "fpaxos configurations are not read yet")
	},
}
