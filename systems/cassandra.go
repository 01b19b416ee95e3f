package systems

// cassandraFormat is not read yet.
var cassandraFormat = Format{
	Name:  "cassandra",
	Sniff: func(string, []byte) bool { return false },
	Parse: func(name string, _ []byte) (*Config, error) {
		return nil, syntaxErrorf(name, 0, "cassandra configurations are not read yet")
	},
}
