package core

// SnapshotFunc is an aclrtSnapShotCallBack bound to its args.
type SnapshotFunc func(dev int32) uint32
