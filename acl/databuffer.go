package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// aclDataBuffer: a host-side descriptor {address, size} that the operator
// and model APIs take for their inputs and outputs. The runtime neither
// checks nor owns the memory it describes, so any address and size are
// accepted (an empty tensor is {NULL, 0}), no aclInit is needed, and
// aclFinalize leaves the descriptors alone: the application destroys them.

// CreateDataBuffer implements aclCreateDataBuffer.
func CreateDataBuffer(t *core.Thread, addr uintptr, size uint64) core.Handle {
	return core.DataBuffers.Add(&core.DataBuffer{Addr: addr, Size: size})
}

// dataBuffer resolves h for fn: NULL → ACL_ERROR_INVALID_PARAM, like a
// destroyed or foreign handle.
func dataBuffer(fn string, h core.Handle) (*core.DataBuffer, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataBuffer must not be NULL", fn)
	}
	if k, _, _ := h.Parts(); k != core.KindDataBuffer {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not an aclDataBuffer", fn, uintptr(h))
	}
	b, err := core.DataBuffers.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: aclDataBuffer %#x was destroyed or never created", fn, uintptr(h))
	}
	return b, nil
}

// DestroyDataBuffer implements aclDestroyDataBuffer. The described memory
// is not freed.
func DestroyDataBuffer(t *core.Thread, h core.Handle) error {
	const fn = "aclDestroyDataBuffer"
	if _, err := dataBuffer(fn, h); err != nil {
		return err
	}
	if !core.DataBuffers.Remove(h) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataBuffer %#x was destroyed concurrently", fn, uintptr(h))
	}
	return nil
}

// UpdateDataBuffer implements aclUpdateDataBuffer: the descriptor now
// names addr and size.
func UpdateDataBuffer(t *core.Thread, h core.Handle, addr uintptr, size uint64) error {
	b, err := dataBuffer("aclUpdateDataBuffer", h)
	if err != nil {
		return err
	}
	core.DataBuffers.Mu.Lock() // the table lock also guards the descriptors' fields
	*b = core.DataBuffer{Addr: addr, Size: size}
	core.DataBuffers.Mu.Unlock()
	return nil
}

// GetDataBuffer implements aclGetDataBufferAddr and aclGetDataBufferSize(V2):
// a NULL or invalid handle is an error, which the C functions turn into
// NULL / 0 (their return types carry no error code).
func GetDataBuffer(t *core.Thread, fn string, h core.Handle) (core.DataBuffer, error) {
	b, err := dataBuffer(fn, h)
	if err != nil {
		return core.DataBuffer{}, err
	}
	core.DataBuffers.Mu.RLock()
	defer core.DataBuffers.Mu.RUnlock()
	return *b, nil
}
