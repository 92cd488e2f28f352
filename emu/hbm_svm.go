package emu

// Reserve takes n bytes of the device's capacity without an address: the
// budget of managed (SVM) pages resident on the device, so that managed
// memory and aclrtMalloc share one capacity and aclrtGetMemInfo sees both.
// It reports false when the bytes are not free (SVM then evicts). It
// implements svm.Device.
func (h *HBM) Reserve(n uint64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil || n > h.total-h.used {
		return false
	}
	if h.nd != nil && !h.nd.charge(n) {
		return false
	}
	h.used += n
	return true
}

// Release returns n bytes taken by Reserve. After Close it does nothing:
// the accounting is gone with the range.
func (h *HBM) Release(n uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return
	}
	n = min(n, h.used)
	h.used -= n
	if h.nd != nil {
		h.nd.uncharge(n)
	}
}
