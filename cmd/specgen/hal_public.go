package main

// The driver functions and types programs written against the HAL use that
// hal-api.md does not tabulate (issue #13 point 5: "HAL examples miss
// halDeviceCanAccessPeer, halDeviceEnableP2P, halDeviceDisableP2P,
// halMemManagedRangeGetAttributes, drvMemDeviceOpen/Close, the HDC_SESSION
// type"). They are the only specgen input that is not ../shared/spec.
//
// Sources (facts only — names, parameter types and order — never text):
//   - rt-to-hal.tsv (../shared/spec) names each function as the driver call
//     of the runtime: rtDeviceCanAccessPeer → halDeviceCanAccessPeer,
//     rtEnableP2P / rtDisableP2P → halDeviceEnableP2P / halDeviceDisableP2P,
//     device open → drvMemDeviceOpen / drvMemDeviceClose; hal-api.md §6
//     names halMemManagedRangeGetAttributes with the
//     DEVMM_MEM_RANGE_ATTRIBUTE ids and the −1 (CPU) / −2 (invalid or
//     mixed) location ids;
//   - the parameter lists are those that public programs linking
//     libascend_hal.so declare in their driver stubs and use at their
//     call sites (several independent public files agree, e.g.
//     halDeviceEnableP2P(uint32_t, uint32_t, uint32_t),
//     halDeviceCanAccessPeer(int *, uint32_t, uint32_t),
//     int drvMemDeviceOpen(unsigned int devid, int devfd),
//     int drvMemDeviceClose(unsigned int devid)); the public search index
//     that found them does not name their repositories, so this is
//     recorded as "public call sites", not as one project's header;
//   - halMemManagedRangeGetAttributes has the shape of the range-attribute
//     query every managed-memory API shares (data pointers, their sizes,
//     the attribute ids, their count, the range): the ids are 32-bit
//     DEVMM_MEM_RANGE_ATTRIBUTE values;
//   - HDC_SESSION (like HDC_CLIENT and HDC_SERVER) is an opaque pointer
//     handle of the host-device channel; hal-constants.tsv already carries
//     its HDC_SESSION_* constants. npuemu declares the type only: it
//     implements no HDC call.
var halPublicFunctions = []struct {
	header, area, proto string
}{
	{"ascend_hal_base.h", "device", "drvError_t halDeviceCanAccessPeer(int *canAccessPeer, uint32_t dev, uint32_t peer_dev);"},
	{"ascend_hal_base.h", "device", "drvError_t halDeviceEnableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag);"},
	{"ascend_hal_base.h", "device", "drvError_t halDeviceDisableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag);"},
	{"ascend_hal_base.h", "mem", "int drvMemDeviceOpen(unsigned int devid, int devfd);"},
	{"ascend_hal_base.h", "mem", "int drvMemDeviceClose(unsigned int devid);"},
	{"ascend_hal_base.h", "mem", "DVresult halMemManagedRangeGetAttributes(void **data, size_t *dataSizes, uint32_t *attributes, size_t numAttributes, DVdeviceptr devPtr, size_t count);"},
	// The buffer (mbuf) family under rtMbuf* (rt-to-hal.tsv rows
	// rtMbufAlloc .. rtMbufSetDataLen name each one) and the queue family
	// under rtMemQueue*. Sources (facts only: names, parameter types and
	// order, field layout):
	//   - parameter lists: the driver stubs and call sites of public
	//     programs linking libascend_hal.so (test doubles of dataflow and
	//     queue-schedule code; several independent files agree on every
	//     list, e.g. int halMbufAlloc(uint64_t size, Mbuf **mbuf),
	//     int halMbufGetPrivInfo(Mbuf *mbuf, void **priv, unsigned int *size),
	//     drvError_t halQueueEnQueue(unsigned int devId, unsigned int qid, void *mbuf));
	//     as above, the search index does not name their repositories;
	//   - QueueAttr: the field list every caller of halQueueCreate fills
	//     (name, depth, workMode, flowCtrlFlag, flowCtrlDropTime,
	//     overWriteFlag, deploy_type) in the order and widths of a public
	//     copy of the driver's external header; the QUEUE_* lengths and
	//     the DRV_ERROR_QUEUE_* codes are already in hal-constants.tsv;
	//   - Mbuf is opaque to callers (they hold Mbuf * only).
	// Left out, with no public layout to cite: halQueueQuery /
	// halQueueQueryInfo (QueueInfo ends in a QueueStat nobody lays out),
	// halQueueSubscribe and the event-scheduling calls (halEsched*: their
	// group and event structures are not public), halMbufAllocEx and the
	// buffer-pool calls (halBuffInit, BuffCfg).
	{"ascend_hal_base.h", "mbuf", "int halMbufAlloc(uint64_t size, Mbuf **mbuf);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufFree(Mbuf *mbuf);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufGetBuffAddr(Mbuf *mbuf, void **buf);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufGetBuffSize(Mbuf *mbuf, uint64_t *totalSize);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufGetDataLen(Mbuf *mbuf, uint64_t *len);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufSetDataLen(Mbuf *mbuf, uint64_t len);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufGetPrivInfo(Mbuf *mbuf, void **priv, unsigned int *size);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufCopyRef(Mbuf *mbuf, Mbuf **newMbuf);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufChainAppend(Mbuf *mbufChainHead, Mbuf *mbuf);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufChainGetMbufNum(Mbuf *mbufChainHead, unsigned int *num);"},
	{"ascend_hal_base.h", "mbuf", "int halMbufChainGetMbuf(Mbuf *mbufChainHead, unsigned int index, Mbuf **mbuf);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueueInit(unsigned int devId);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueueCreate(unsigned int devId, const QueueAttr *queAttr, unsigned int *qid);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueueDestroy(unsigned int devId, unsigned int qid);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueueEnQueue(unsigned int devId, unsigned int qid, void *mbuf);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueueDeQueue(unsigned int devId, unsigned int qid, void **mbuf);"},
	{"ascend_hal_base.h", "queue", "drvError_t halQueuePeek(unsigned int devId, unsigned int qid, uint64_t *buf_len, int timeout);"},
}

var halPublicTypedefs = []typedef{
	{Name: "HDC_CLIENT", Header: "ascend_hal_base.h", Decl: "typedef void *HDC_CLIENT;"},
	{Name: "HDC_SERVER", Header: "ascend_hal_base.h", Decl: "typedef void *HDC_SERVER;"},
	{Name: "HDC_SESSION", Header: "ascend_hal_base.h", Decl: "typedef void *HDC_SESSION;"},
	// The buffer and queue families (sources above, halPublicFunctions).
	{Name: "Mbuf", Header: "ascend_hal_base.h", Decl: "typedef struct Mbuf Mbuf;"},
	{Name: "QueueAttr", Header: "ascend_hal_base.h", Decl: `typedef struct {
    char name[QUEUE_MAX_STR_LEN];
    unsigned int depth;
    unsigned int workMode;
    bool flowCtrlFlag;
    unsigned int flowCtrlDropTime;
    bool overWriteFlag;
    unsigned int deploy_type : 1;
    unsigned int queue_entity_type : 2;
    unsigned int resv : 29;
} QueueAttr;`},
}

// addHALPublic appends the functions and types above to the parsed HAL
// spec, after the spec's own (so no existing symbol moves).
func addHALPublic(h *halSpec) error {
	have := map[string]bool{}
	for _, f := range h.Functions {
		have[f.Name] = true
	}
	for _, p := range halPublicFunctions {
		name := protoName(p.proto)
		if have[name] {
			// The spec caught up: its own entry wins.
			continue
		}
		f, err := splitPrototype(name, p.proto)
		if err != nil {
			return err
		}
		f.Header, f.Area, f.Lib = p.header, p.area, "hal"
		h.Functions = append(h.Functions, f)
	}
	types := map[string]bool{}
	for _, t := range h.Typedefs {
		types[t.Name] = true
	}
	for _, t := range halPublicTypedefs {
		if !types[t.Name] {
			h.Typedefs = append(h.Typedefs, t)
		}
	}
	return nil
}

// protoName is the function name of a one-line C prototype.
func protoName(proto string) string {
	end := 0
	for end < len(proto) && proto[end] != '(' {
		end++
	}
	start := end
	for start > 0 && (proto[start-1] == '_' || isAlnum(proto[start-1])) {
		start--
	}
	return proto[start:end]
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
