package core

// DataBuffer is one aclDataBuffer.
type DataBuffer struct {
	Addr uintptr
	Size uint64
}

var DataBuffers = NewTable[DataBuffer](KindDataBuffer)

// LiveDataBuffers returns the number of data buffers not destroyed.
func LiveDataBuffers() int { return DataBuffers.Len() }
