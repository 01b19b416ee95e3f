package systems

// mongodbFormat is not read yet.
var mongodbFormat = Format{
	Name:  "mongodb",
	Sniff: func(string, []byte) bool { return false },
	Parse: func(name string, _ []byte) (*Config, error) {
		return nil, syntaxErrorf(name, 0, "mongodb configurations are not read yet")
	},
}
