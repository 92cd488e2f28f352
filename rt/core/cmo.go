package core

const (
	CmoDescSize = 32
)
