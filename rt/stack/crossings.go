package stack

// Crossings lists, per rt* function, the driver calls (hal*/drv*) its
// npuemu implementation makes through the driver's exported symbols — the
// calls a hook on libascend_hal.so sees, in both layouts. Every pair is a
// row of rt-to-hal.tsv (the vendor's runtime makes the same call).
// TestSplitLayoutForwardingHook (conformance) checks it both ways: each
// pair is seen by a forwarding hook in some case, and every driver call a
// hooked rt* function is seen to make is listed here.
//
// Keep one line per rt* function, sorted within its family.
var Crossings = map[string][]string{
	// Device memory.
	"rtMalloc":          {"halMemAlloc"},
	"rtFree":            {"halMemFree"},
	"rtFreeWithDevSync": {"halMemFree"},
	"rtMemGetInfoEx":    {"halMemGetInfo"},
	// Peer access.
	"rtEnableP2P":           {"halDeviceEnableP2P"},
	"rtDisableP2P":          {"halDeviceDisableP2P"},
	"rtDeviceCanAccessPeer": {"halDeviceCanAccessPeer"},
	// Information.
	"rtGetMemUsageInfo": {"halGetMemUsageInfo"},
	"rtGetDeviceInfo":   {"halGetDeviceInfo"},
	// Physical memory, reservations and mappings.
	"rtMallocPhysical":    {"halMemCreate"},
	"rtFreePhysical":      {"halMemRelease"},
	"rtReserveMemAddress": {"halMemAddressReserve"},
	"rtReleaseMemAddress": {"halMemAddressFree"},
	"rtMapMem":            {"halMemMap"},
	"rtUnmapMem":          {"halMemUnmap"},
	// Mbufs (rt/stack/mbuf.go).
	"rtMbufAlloc":           {"halMbufAlloc"},
	"rtMbufFree":            {"halMbufFree"},
	"rtMbufGetBuffAddr":     {"halMbufGetBuffAddr"},
	"rtMbufGetBuffSize":     {"halMbufGetBuffSize"},
	"rtMbufGetDataLen":      {"halMbufGetDataLen"},
	"rtMbufSetDataLen":      {"halMbufSetDataLen"},
	"rtMbufGetPrivInfo":     {"halMbufGetPrivInfo"},
	"rtMbufCopyBufRef":      {"halMbufCopyRef"},
	"rtMbufChainAppend":     {"halMbufChainAppend"},
	"rtMbufChainGetMbufNum": {"halMbufChainGetMbufNum"},
	"rtMbufChainGetMbuf":    {"halMbufChainGetMbuf"},
}

// NotCrossed says, per driver function, why npuemu's runtime does not
// make it through the driver's symbols in the rows of rt-to-hal.tsv that
// Crossings does not list (for a driver function Crossings never names:
// in any row). A single pair can be excused alone (NotCrossedPairs).
// TestEveryVendorCrossingIsAccounted (rt/stack) requires every row's
// driver call npuemu implements to be crossed or excused.
var NotCrossed = map[string]string{}

// NotCrossedPairs excuses one (rt* function, driver call) pair of
// rt-to-hal.tsv, keyed "rtX halY", with why.
var NotCrossedPairs = map[string]string{}
