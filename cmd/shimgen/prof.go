package main

// Return types of the profiling interfaces (acl/acl_prof.h, mstx), whose
// symbols are ACL symbols of the areas "prof" and "mstx" (cmd/specgen/prof.go).
func init() {
	for _, t := range []string{"aclprofSubscribeOpFlag", "mstxRangeId"} {
		numberTypes[t] = true
	}
	for _, t := range []string{"mstxDomainHandle_t", "mstxMemHeapHandle_t"} {
		handleTypes[t] = true
	}
}
