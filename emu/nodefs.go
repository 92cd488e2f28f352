package emu

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// The node directory (docs/node.md, npuemu/node_format.h): the state every
// process of one emulated machine shares, without a daemon. NodeDir is one
// process's view of it: the mapped node file, the process's slot (held by
// an OFD lock the kernel drops at death) and the table lock.
//
// Lock order: NodeDir.mu (in-process half of the table lock) → the OFD
// table lock → HBM.mu. OFD locks of one open file description do not
// exclude each other, so threads of this process serialise on mu first.

// Environment variables of the node directory.
const (
	EnvNode      = "NPUEMU_NODE"       // node name or absolute directory; default DefaultNodeDir
	EnvNodeGroup = "NPUEMU_NODE_GROUP" // group (name or gid) that may share the node: 0770/0660 files
)

// DefaultNodeDir is the node directory when NPUEMU_NODE is unset.
const DefaultNodeDir = "/dev/shm/npuemu-node"

// Fcntl commands of OFD locks (package syscall predates them).
const (
	fOFDGetLk  = 36
	fOFDSetLk  = 37
	fOFDSetLkw = 38
)

// nodeScanEvery bounds how often node-wide queries look for dead processes.
const nodeScanEvery = 100 * time.Millisecond

// plainNodeName: v is a bare name of ASCII letters, digits, '.', '_' and
// '-' (no regexp package: its tables would be relocated at every start).
func plainNodeName(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return v != ""
}

// sharedNodeDefault: the library (libfake) always uses a node directory;
// Go programs that build nodes themselves use one only when NPUEMU_NODE
// names it.
var sharedNodeDefault atomic.Bool

// UseNodeDirByDefault makes LoadConfig pick the default node directory when
// NPUEMU_NODE is unset (the C library calls it at load).
func UseNodeDirByDefault() { sharedNodeDefault.Store(true) }

// resolveNodeDir maps NPUEMU_NODE's value to a directory ("" = none).
func resolveNodeDir(v string) (string, error) {
	switch {
	case v == "":
		if sharedNodeDefault.Load() {
			return DefaultNodeDir, nil
		}
		return "", nil
	case filepath.IsAbs(v):
		return filepath.Clean(v), nil
	case plainNodeName(v) && v != "." && v != "..":
		return "/dev/shm/npuemu-" + v, nil
	}
	return "", abi.DevErrorf(abi.DevBadArgument,
		"%s=%q: want a name of letters, digits, '.', '_', '-' (directory /dev/shm/npuemu-<name>) or an absolute path", EnvNode, v)
}

// nodeLayout is the section layout of a node file for n devices.
type nodeLayout struct {
	devices, chunks, procs, ipc, events, notifies, imports, vnpus, size uint64
}

func layoutFor(n uint64) nodeLayout {
	var l nodeLayout
	off := uint64(sizeofNodeHeader)
	next := func(bytes uint64) uint64 {
		o := off
		off = alignUp(off+bytes, pageSize)
		return o
	}
	l.devices = next(n * sizeofNodeDevice)
	l.chunks = next(n * NodeChunks * 4)
	l.procs = next(NodeMaxProcs * sizeofNodeProc)
	l.ipc = next(NodeMaxIPC * sizeofNodeIPC)
	l.events = next(NodeMaxEvents * sizeofNodeEvent)
	l.notifies = next(NodeMaxNotifies * sizeofNodeNotify)
	l.imports = next(NodeMaxImports * sizeofNodeImport)
	l.vnpus = next(n * NodeMaxVNPUs * sizeofNodeVNPU)
	l.size = off
	return l
}

// NodeDir is this process's attachment to a node directory.
type NodeDir struct {
	path string
	fd   int
	mem  uintptr // the node file's mapping
	size uint64
	hdr  *NodeHeader
	slot int
	gen  uint64
	proc *NodeProc

	mu         sync.Mutex // in-process half of the table lock
	lastScan   atomic.Int64
	closed     bool // guarded by mu
	ipcHint    int  // guarded by mu: where the search for a free IPC entry starts
	importHint int  // guarded by mu: where the search for a free import entry starts
	made       made // guarded by mu: the tables this process has put entries in
}

// made says which of the node's tables a process has put entries in (a
// bit each; an import a bit per kind). The process's own reclaim (Close)
// scans only those: the tables span megabytes of the node file that a
// process which never used them has not even faulted in (a scan of all
// cost every aclFinalize ~0.6 ms). A dead process's reclaim scans all.
type made uint32

const (
	madeIPC made = 1 << iota
	madeEvents
	madeNotifies
	madeImportIPC
	madeImportEvent
	madeImportNotify
	madeAll = ^made(0)
)

// importMade is the bit of an import of kind.
func importMade(kind uint32) made {
	switch kind {
	case NodeImportIPC:
		return madeImportIPC
	case NodeImportEvent:
		return madeImportEvent
	case NodeImportNotify:
		return madeImportNotify
	}
	return madeAll
}

// nodeErr is the error of a node directory that cannot be used.
func nodeErr(path, format string, args ...any) error {
	return abi.DevErrorf(abi.DevSetupFailed, "emu: node directory %s: %s", path, fmt.Sprintf(format, args...))
}

// nodePermErr is nodeErr for a permission problem.
func nodePermErr(path string, err error) error {
	owner := ""
	var st syscall.Stat_t
	if syscall.Stat(path, &st) == nil {
		owner = fmt.Sprintf(" (owner uid %d, group %d, mode %#o; this process is uid %d)", st.Uid, st.Gid, st.Mode&0o777, os.Getuid())
	}
	return abi.DevErrorf(abi.DevNoPermission,
		"emu: node directory %s: %v%s; set %s to a node of your own or ask its owner to share it with %s", path, err, owner, EnvNode, EnvNodeGroup)
}

// nodeGroup returns the gid of NPUEMU_NODE_GROUP, or -1 when unset.
func nodeGroup() (int, error) {
	v := strings.TrimSpace(os.Getenv(EnvNodeGroup))
	if v == "" {
		return -1, nil
	}
	if gid, err := strconv.Atoi(v); err == nil && gid >= 0 {
		return gid, nil
	}
	data, err := os.ReadFile("/etc/group")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, ":")
			if len(f) >= 3 && f[0] == v {
				if gid, err := strconv.Atoi(f[2]); err == nil {
					return gid, nil
				}
			}
		}
	}
	return -1, abi.DevErrorf(abi.DevBadArgument, "%s=%q: no such group", EnvNodeGroup, v)
}

// nodeSpec is what a node file must say to match this process's
// configuration.
type nodeSpec struct {
	soc      SoC
	devices  int    // physical devices of the node
	usable   uint64 // usable bytes per device
	span     uint64 // bytes of each device's window
	chunk    uint64
	chunks   int
	stride   uint64
	fileMode uint32
}

func specFor(cfg Config, soc SoC, usable uint64) (nodeSpec, error) {
	s := nodeSpec{soc: soc, devices: cfg.PhysicalCount(), usable: usable}
	span := alignUp(2*usable, hugePageSize)
	s.chunk = hugePageSize
	for s.chunk*NodeChunks < span {
		s.chunk *= 2
	}
	s.span = alignUp(span, s.chunk)
	s.chunks = int(s.span / s.chunk)
	s.stride = alignUp(s.span, 1<<30)
	if uint64(s.devices)*s.stride > NodeWindowSize {
		return s, abi.DevErrorf(abi.DevBadArgument,
			"emu: %d devices of %d bytes do not fit the node's device window (%d TiB): use fewer devices or less memory per device",
			s.devices, usable, NodeWindowSize>>40)
	}
	return s, nil
}

// OpenNodeDir attaches this process to the node directory path, creating
// it for cfg when it does not exist. An existing node must describe the
// same machine (SoC, device count, memory); anything else is refused with
// a message, never replaced.
func OpenNodeDir(path string, cfg Config, soc SoC, usable uint64) (*NodeDir, error) {
	spec, err := specFor(cfg, soc, usable)
	if err != nil {
		return nil, err
	}
	gid, err := nodeGroup()
	if err != nil {
		return nil, err
	}
	dirMode, fileMode := uint32(0o700), uint32(0o600)
	if gid >= 0 {
		dirMode, fileMode = 0o770, 0o660
	}
	spec.fileMode = fileMode
	// The directory usually exists: the error is compared as the errno it
	// is (errors.Is would look up an interface table, a runtime page first
	// read and then written at every start).
	if err := mkdirErrno(path, dirMode); err == 0 {
		_ = os.Chmod(path, os.FileMode(dirMode)) // the umask may have narrowed it
		if gid >= 0 {
			if err := os.Chown(path, -1, gid); err != nil {
				return nil, nodePermErr(path, err)
			}
		}
	} else if err != syscall.EEXIST {
		if err == syscall.EACCES || err == syscall.EPERM {
			return nil, nodePermErr(path, &os.PathError{Op: "mkdir", Path: path, Err: err})
		}
		return nil, nodeErr(path, "cannot create it: %v", &os.PathError{Op: "mkdir", Path: path, Err: err})
	}
	file := filepath.Join(path, "node")
	for try := 0; ; try++ {
		d, err := openNodeFile(path, file, spec, gid)
		if (!errors.Is(err, errNodeStale) && !errors.Is(err, errNodeReplaced)) || try == 5 {
			return d, err
		}
	}
}

// mkdirErrno is os.Mkdir with its error as the errno (0: made).
func mkdirErrno(path string, mode uint32) syscall.Errno {
	for {
		err := syscall.Mkdir(path, mode)
		if err == nil {
			return 0
		}
		e, ok := err.(syscall.Errno)
		if !ok {
			return syscall.EINVAL // (syscall.Mkdir returns errnos only)
		}
		if e != syscall.EINTR {
			return e
		}
	}
}

// errNodeStale: the node file was replaced while this process opened it;
// errNodeReplaced: this process replaced an unused node of another
// configuration. Both mean: open again.
var (
	errNodeStale    = errors.New("node file replaced meanwhile")
	errNodeReplaced = errors.New("unused node replaced")
)

// errNodeMismatch wraps the message of a node of another configuration.
type errNodeMismatch struct{ err error }

func (e errNodeMismatch) Error() string { return e.err.Error() }
func (e errNodeMismatch) Unwrap() error { return e.err }

func openNodeFile(path, file string, spec nodeSpec, gid int) (*NodeDir, error) {
	fd, err := syscall.Open(file, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ENOENT) {
		fd, err = createNodeFile(path, file, spec, gid)
	}
	if err != nil {
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
			return nil, nodePermErr(file, err)
		}
		var ae *abi.DevError
		if errors.As(err, &ae) {
			return nil, err
		}
		return nil, nodeErr(path, "cannot open %s: %v", file, err)
	}
	d := &NodeDir{path: path, fd: fd}
	if err := d.mapAndCheck(spec); err != nil {
		var mm errNodeMismatch
		if errors.As(err, &mm) && d.replaceUnused() {
			_ = syscall.Close(fd)
			return nil, errNodeReplaced
		}
		_ = syscall.Close(fd)
		if errors.As(err, &mm) {
			return nil, mm.err
		}
		return nil, err
	}
	if err := d.attach(); err != nil {
		d.unmap()
		_ = syscall.Close(fd)
		return nil, err
	}
	d.Reclaim(true)
	return d, nil
}

// replaceUnused removes a node of another configuration that no live
// process uses, so that the caller creates one for its own: a node outlives
// its processes, and one left by an earlier run must not lock the machine
// into that run's configuration. A node in use is never replaced.
func (d *NodeDir) replaceUnused() bool {
	if d.ofdLock(NodeLockTables, syscall.F_WRLCK, true) != nil {
		return false
	}
	// The file may be this process's view of an already replaced node.
	if !d.current() {
		return true
	}
	var st syscall.Stat_t
	if syscall.Fstat(d.fd, &st) != nil || uint64(st.Size) < sizeofNodeHeader {
		return false
	}
	addr, err := mmapAt(0, uint64(st.Size), syscall.PROT_READ, syscall.MAP_SHARED, d.fd, 0)
	if err != nil {
		return false
	}
	defer munmapAt(addr, uint64(st.Size))
	h := nodeHeaderAt(addr)
	view := &NodeDir{path: d.path, fd: d.fd, mem: addr, hdr: h, slot: -1}
	for i := 0; i < int(h.MaxProcs) && i < NodeMaxProcs; i++ {
		if atomic.LoadUint32(&view.Proc(i).State) != NodeProcFree && !view.slotDead(i) {
			return false // in use: the caller reports the mismatch
		}
	}
	names, _ := filepath.Glob(filepath.Join(d.path, "hbm*"))
	for _, n := range names {
		_ = os.Remove(n)
	}
	_ = os.Remove(filepath.Join(d.path, "node"))
	return true // closing d.fd drops every lock taken here
}

// current reports whether d.fd is still the directory's node file.
func (d *NodeDir) current() bool {
	var a, b syscall.Stat_t
	if syscall.Fstat(d.fd, &a) != nil || syscall.Stat(filepath.Join(d.path, "node"), &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}

// createNodeFile writes a complete node file under a temporary name and
// links it into place; the loser of a creation race opens the winner's.
func createNodeFile(dir, file string, s nodeSpec, gid int) (int, error) {
	tmp := filepath.Join(dir, fmt.Sprintf("node.tmp-%d", os.Getpid()))
	_ = os.Remove(tmp)
	fd, err := syscall.Open(tmp, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, s.fileMode)
	if err != nil {
		return -1, err
	}
	defer func() { _ = os.Remove(tmp) }()
	_ = syscall.Fchmod(fd, s.fileMode)
	if gid >= 0 {
		_ = syscall.Fchown(fd, -1, gid)
	}
	l := layoutFor(uint64(s.devices))
	if err := syscall.Ftruncate(fd, int64(l.size)); err != nil {
		_ = syscall.Close(fd)
		return -1, err
	}
	addr, err := mmapAt(0, l.size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED, fd, 0)
	if err != nil {
		_ = syscall.Close(fd)
		return -1, err
	}
	initNodeFile(addr, l, s)
	if spec := os.Getenv(EnvVNPUs); spec != "" {
		view := &NodeDir{path: dir, fd: fd, mem: addr, hdr: nodeHeaderAt(addr)}
		if err := view.createConfiguredVNPUs(spec); err != nil {
			munmapAt(addr, l.size)
			_ = syscall.Close(fd)
			return -1, err
		}
	}
	munmapAt(addr, l.size)
	if err := syscall.Link(tmp, file); err != nil && !errors.Is(err, syscall.EEXIST) {
		_ = syscall.Close(fd)
		return -1, err
	}
	_ = syscall.Close(fd)
	return syscall.Open(file, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
}

// initNodeFile fills a zeroed node file of layout l.
func initNodeFile(addr uintptr, l nodeLayout, s nodeSpec) {
	h := nodeHeaderAt(addr)
	h.Magic, h.Version, h.HeaderSize, h.FileSize = NodeMagic, NodeVersion, uint32(sizeofNodeHeader), l.size
	h.CreatedNS = uint64(time.Now().UnixNano())
	copy(h.SocName[:len(h.SocName)-1], s.soc.Name)
	h.DeviceCount = uint32(s.devices)
	h.MaxProcs, h.MaxIPC, h.MaxEvents, h.MaxNotifies = NodeMaxProcs, NodeMaxIPC, NodeMaxEvents, NodeMaxNotifies
	h.MaxImports, h.MaxVNPUs, h.ChunkCount = NodeMaxImports, NodeMaxVNPUs, uint32(s.chunks)
	h.DevicesOff, h.ChunksOff, h.ProcsOff, h.IPCOff = l.devices, l.chunks, l.procs, l.ipc
	h.EventsOff, h.NotifiesOff, h.ImportsOff, h.VNPUsOff = l.events, l.notifies, l.imports, l.vnpus
	h.DeviceSize, h.ProcSize, h.IPCSize, h.EventSize = uint32(sizeofNodeDevice), uint32(sizeofNodeProc), uint32(sizeofNodeIPC), uint32(sizeofNodeEvent)
	h.NotifySize, h.ImportSize, h.VNPUSize = uint32(sizeofNodeNotify), uint32(sizeofNodeImport), uint32(sizeofNodeVNPU)
	h.Mode = s.fileMode
	h.WindowBase, h.WindowStride = NodeWindowBase, s.stride
	h.HeaderSum = nodeSum(headerBytes(h))
	h.State = NodeStateReady
	for i := 0; i < s.devices; i++ {
		d := nodeDeviceAt(addr + uintptr(l.devices) + uintptr(uint64(i)*sizeofNodeDevice))
		d.ID, d.PhysID = uint32(i), uint32(i)
		copy(d.SocName[:len(d.SocName)-1], s.soc.Name)
		d.AICoreCount, d.VectorCount, d.AICPUCount, d.CubeCount = uint32(s.soc.AICores), uint32(s.soc.VectorCores), uint32(s.soc.AICPUs), uint32(s.soc.CubeCores)
		d.HBMUsable = s.usable
		d.HBMTotal = max(s.soc.HBMBytes, s.usable)
		d.HBMOSBytes = d.HBMTotal - s.usable
		d.HBMSpan, d.ChunkBytes, d.ChunkCount = s.span, s.chunk, uint32(s.chunks)
		d.CubeMHz = uint32(s.soc.CubeMHz)
		d.StaticSum = nodeSum(deviceStaticBytes(d))
		d.AICoreFree, d.AICPUFree, d.HBMFreeVNPU = d.AICoreCount, d.AICPUCount, s.usable
	}
}

// mapAndCheck maps the node file and runs the reader's checks of
// docs/node.md, then compares the node with spec.
func (d *NodeDir) mapAndCheck(s nodeSpec) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(d.fd, &st); err != nil {
		return nodeErr(d.path, "stat of the node file: %v", err)
	}
	if uint64(st.Size) < sizeofNodeHeader {
		return nodeErr(d.path, "the node file is truncated (%d bytes, a header alone is %d): remove the directory to start afresh", st.Size, sizeofNodeHeader)
	}
	d.size = uint64(st.Size)
	addr, err := mmapAt(0, d.size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED, d.fd, 0)
	if err != nil {
		return nodeErr(d.path, "cannot map the node file: %v", err)
	}
	d.mem = addr
	d.hdr = nodeHeaderAt(addr)
	if err := checkNodeFile(d.hdr, d.size, d.mem); err != nil {
		d.unmap()
		return nodeErr(d.path, "%v: remove the directory to start afresh", err)
	}
	h := d.hdr
	socName := string(bytes.TrimRight(h.SocName[:], "\x00"))
	dev0 := d.Device(0)
	if count, usable := int(h.DeviceCount), dev0.HBMUsable; socName != s.soc.Name || count != s.devices || usable != s.usable || h.WindowBase != NodeWindowBase {
		d.unmap() // h and dev0 are gone from here on
		return errNodeMismatch{nodeErr(d.path, "it holds %d × %s with %d bytes each and processes use it, this process is configured for %d × %s with %d bytes: use the same configuration or another %s",
			count, socName, usable, s.devices, s.soc.Name, s.usable, EnvNode)}
	}
	return nil
}

// checkNodeFile runs the format checks of docs/node.md.
func checkNodeFile(h *NodeHeader, size uint64, mem uintptr) error {
	switch {
	case h.Magic != NodeMagic:
		return fmt.Errorf("not an npuemu node file (magic %#x)", h.Magic)
	case h.Version != NodeVersion:
		return fmt.Errorf("node format version %d, this library reads version %d", h.Version, NodeVersion)
	case uint64(h.HeaderSize) != sizeofNodeHeader || uint64(h.DeviceSize) != sizeofNodeDevice || uint64(h.ProcSize) != sizeofNodeProc ||
		uint64(h.IPCSize) != sizeofNodeIPC || uint64(h.EventSize) != sizeofNodeEvent || uint64(h.NotifySize) != sizeofNodeNotify ||
		uint64(h.ImportSize) != sizeofNodeImport || uint64(h.VNPUSize) != sizeofNodeVNPU:
		return errors.New("record sizes differ from this library's format")
	case h.HeaderSum != nodeSum(headerBytes(h)):
		return errors.New("header checksum mismatch (corrupt node file)")
	case h.DeviceCount == 0 || h.DeviceCount > NodeMaxDevices || h.State != NodeStateReady:
		return fmt.Errorf("bad device count %d or state %d", h.DeviceCount, h.State)
	}
	l := layoutFor(uint64(h.DeviceCount))
	if h.FileSize != l.size || size != l.size || h.DevicesOff != l.devices || h.ChunksOff != l.chunks ||
		h.ProcsOff != l.procs || h.IPCOff != l.ipc || h.VNPUsOff != l.vnpus {
		return fmt.Errorf("the node file is %d bytes, its header says %d and its layout %d (truncated or corrupt)", size, h.FileSize, l.size)
	}
	for i := uint32(0); i < h.DeviceCount; i++ {
		dv := nodeDeviceAt(mem + uintptr(h.DevicesOff) + uintptr(uint64(i)*sizeofNodeDevice))
		if dv.StaticSum != nodeSum(deviceStaticBytes(dv)) {
			return fmt.Errorf("device %d record checksum mismatch (corrupt node file)", i)
		}
	}
	return nil
}

func (d *NodeDir) unmap() {
	if d.mem != 0 {
		munmapAt(d.mem, d.size)
		d.mem, d.hdr = 0, nil
	}
}

// Path returns the directory.
func (d *NodeDir) Path() string { return d.path }

// Slot returns this process's slot index.
func (d *NodeDir) Slot() int { return d.slot }

// Header returns the mapped header.
func (d *NodeDir) Header() *NodeHeader { return d.hdr }

// Device returns the record of physical device i.
func (d *NodeDir) Device(i int) *NodeDevice {
	return nodeDeviceAt(d.mem + uintptr(d.hdr.DevicesOff) + uintptr(uint64(i)*sizeofNodeDevice))
}

// Proc returns process slot i.
func (d *NodeDir) Proc(i int) *NodeProc {
	return nodeProcAt(d.mem + uintptr(d.hdr.ProcsOff) + uintptr(uint64(i)*sizeofNodeProc))
}

// Self returns this process's slot.
func (d *NodeDir) Self() *NodeProc { return d.proc }

// lock takes the table lock. Every table change happens between lock and
// unlock; seq marks the change for lock-free readers.
func (d *NodeDir) lock() error {
	d.mu.Lock()
	if err := d.ofdLock(NodeLockTables, syscall.F_WRLCK, true); err != nil {
		d.mu.Unlock()
		return nodeErr(d.path, "table lock: %v", err)
	}
	atomic.AddUint64(&d.hdr.TablesSeq, 1)
	return nil
}

func (d *NodeDir) unlock() {
	atomic.AddUint64(&d.hdr.TablesSeq, 1)
	_ = d.ofdLock(NodeLockTables, syscall.F_UNLCK, false)
	d.mu.Unlock()
}

// ofdLock sets an OFD lock of type typ on one byte.
func (d *NodeDir) ofdLock(off uint64, typ int16, wait bool) error {
	cmd := fOFDSetLk
	if wait {
		cmd = fOFDSetLkw
	}
	lk := syscall.Flock_t{Type: typ, Whence: 0, Start: int64(off), Len: 1}
	for {
		err := syscall.FcntlFlock(uintptr(d.fd), cmd, &lk)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// attach claims a free process slot and its liveness lock.
func (d *NodeDir) attach() error {
	if err := d.lock(); err != nil {
		return err
	}
	defer d.unlock()
	if !d.current() {
		return errNodeStale
	}
	for i := 0; i < NodeMaxProcs; i++ {
		p := d.Proc(i)
		if p.State != NodeProcFree {
			continue
		}
		if err := d.ofdLock(NodeLockSlotBase+uint64(i), syscall.F_WRLCK, false); err != nil {
			continue // a process that died mid-attach, or one still reclaiming it
		}
		gen := p.Generation + 1
		*p = NodeProc{}
		p.Generation = gen
		p.PID = int32(os.Getpid())
		p.BareTGID = p.PID
		p.UID = uint32(os.Getuid())
		p.StartTime = procStartTime(os.Getpid())
		p.MntNS = nsInode("mnt")
		p.PIDNS = nsInode("pid")
		p.AttachedNS = uint64(time.Now().UnixNano())
		if comm, err := readProc("/proc/self/comm"); err == nil {
			copy(p.Comm[:len(p.Comm)-1], bytes.TrimSpace(comm))
		}
		for j := range p.VNPU {
			p.VNPU[j] = -1
		}
		atomic.StoreUint32(&p.State, NodeProcLive)
		d.slot, d.gen, d.proc = i, gen, p
		return nil
	}
	return abi.DevErrorf(abi.DevNoResource,
		"emu: node directory %s: all %d process slots are in use", d.path, NodeMaxProcs)
}

// readProc reads a small /proc file (at most 4 KiB) with plain system
// calls: os.ReadFile would start Go's network poller (an epoll instance
// and an eventfd) in every process, for the two reads of attach.
func readProc(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	b := make([]byte, 4096)
	n := 0
	for n < len(b) {
		k, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return b[:n], nil
}

// procStartTime returns field 22 of /proc/<pid>/stat (0 if unreadable).
func procStartTime(pid int) uint64 {
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	v, _ := strconv.ParseUint(f[19], 10, 64) // field 22 counted from pid
	return v
}

func nsInode(kind string) uint64 {
	var st syscall.Stat_t
	if syscall.Stat("/proc/self/ns/"+kind, &st) != nil {
		return 0
	}
	return st.Ino
}

// Reclaim frees the slots of dead processes (docs/node.md, "Reclaim").
// Unless force, it runs at most every nodeScanEvery.
func (d *NodeDir) Reclaim(force bool) {
	now := time.Now().UnixNano()
	if last := d.lastScan.Load(); !force && now-last < int64(nodeScanEvery) {
		return
	}
	d.lastScan.Store(now)
	var dead []int
	for i := 0; i < NodeMaxProcs; i++ {
		if i != d.slot && atomic.LoadUint32(&d.Proc(i).State) != NodeProcFree && d.slotDead(i) {
			dead = append(dead, i)
		}
	}
	if len(dead) == 0 {
		return
	}
	if d.lock() != nil {
		return
	}
	defer d.unlock()
	for _, i := range dead {
		if d.Proc(i).State != NodeProcFree {
			d.reclaimLocked(i)
		} else { // another process reclaimed it first
			_ = d.ofdLock(NodeLockSlotBase+uint64(i), syscall.F_UNLCK, false)
		}
	}
}

// slotDead reports whether slot i's owner is gone: its liveness lock is
// free (taken here for the reclaim, released by reclaimLocked) or its pid
// no longer names the process that took it.
func (d *NodeDir) slotDead(i int) bool {
	off := NodeLockSlotBase + uint64(i)
	if d.ofdLock(off, syscall.F_WRLCK, false) == nil {
		return true
	}
	p := d.Proc(i)
	if p.PIDNS == nsInode("pid") && p.StartTime != 0 {
		return procStartTime(int(p.PID)) != p.StartTime
	}
	return false
}

// reclaimLocked applies the driver's rules for a dead process to slot i.
// Precondition: table lock held.
func (d *NodeDir) reclaimLocked(i int) {
	p := d.Proc(i)
	atomic.StoreUint32(&p.State, NodeProcDead)
	scan := madeAll
	if i == d.slot {
		scan = d.made
	}
	d.reclaimIPCLocked(i, scan)
	d.reclaimEventsLocked(i, scan)
	d.reclaimNotifiesLocked(i, scan)
	d.leaveCoresLocked(i) // nodecores.go
	d.reclaimVNPULocked(p)
	open := atomic.LoadUint64(&p.DevicesOpen) // set before any memory is charged or chunk taken
	for dev := 0; dev < int(d.hdr.DeviceCount); dev++ {
		if open&(1<<uint(dev)) == 0 {
			continue // never opened: nothing charged, no chunk (and its table's pages untouched)
		}
		if n := atomic.SwapUint64(&p.HBMBytes[dev], 0); n != 0 {
			subSat(&d.Device(dev).HBMUsed, n)
		}
		d.releaseChunksOf(dev, uint32(i+1))
	}
	atomic.StoreUint32(&p.State, NodeProcFree)
	_ = d.ofdLock(NodeLockSlotBase+uint64(i), syscall.F_UNLCK, false)
}

// subSat subtracts n from *p without going below 0.
func subSat(p *uint64, n uint64) {
	for {
		v := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, v, v-min(v, n)) {
			return
		}
	}
}

// releaseChunksOf frees every chunk of device dev owned by owner and
// punches its pages out of the device's memory file.
func (d *NodeDir) releaseChunksOf(dev int, owner uint32) {
	chunks := d.Chunks(dev)
	dv := d.Device(dev)
	var fd = -1
	for c := range chunks {
		if atomic.LoadUint32(&chunks[c]) != owner {
			continue
		}
		if fd < 0 {
			var err error
			if fd, err = syscall.Open(filepath.Join(d.path, hbmFileName(dev)), syscall.O_RDWR|syscall.O_CLOEXEC, 0); err != nil {
				fd = -2 // no file, nothing to punch
			}
		}
		if fd >= 0 {
			punchHole(fd, uint64(c)*dv.ChunkBytes, dv.ChunkBytes)
		}
		atomic.CompareAndSwapUint32(&chunks[c], owner, 0)
	}
	if fd >= 0 {
		_ = syscall.Close(fd)
	}
}

// punchHole frees [off, off+n) of a memory file (FALLOC_FL_PUNCH_HOLE |
// FALLOC_FL_KEEP_SIZE); a kernel that refuses only keeps the pages.
func punchHole(fd int, off, n uint64) {
	const mode = 0x02 | 0x01
	_ = syscall.Fallocate(fd, mode, int64(off), int64(n))
}

// Close gives the slot back: this process's IPC entries are destroyed and
// its memory returns to the pool, as if it had died.
func (d *NodeDir) Close() {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	d.mu.Unlock()
	if d.lock() == nil {
		d.reclaimLocked(d.slot)
		d.unlock()
	}
	d.unmap()
	_ = syscall.Close(d.fd)
}
