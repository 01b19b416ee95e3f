module github.com/coterie-dev/coterie

go 1.24.0

require github.com/bits-and-blooms/bitset v1.29.0

require gonum.org/v1/gonum v0.17.0 // indirect
