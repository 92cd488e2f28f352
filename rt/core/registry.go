package core

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	memdb "github.com/hashicorp/go-memdb"
)

// The registry of record for long-lived objects (devices in use, contexts,
// streams, events, notifies, counting notifies, labels, label lists, VMM
// physical handles, imported shareable handles, address reservations and
// memory pools) is a go-memdb database: it answers "what is alive" for the
// leak report at aclFinalize and for tools, never for a hot path.
// Device allocations are NOT stored here: each device's allocation map
// (device.allocs) is the registry of record for allocations, and the
// pools' block map (poolPtrs) for pool blocks; model run instances are
// listed from LiveRIs (modelri.go). Both are read at report time.
//
// Writes are batched. A memdb write transaction costs ~20 µs on this
// machine (radix-node copies, watch channels, its own GC load), which made
// creating and destroying the 1983 streams of a device take ~150 ms. So
// register and unregister only queue the change (a map operation, well under
// a microsecond) and the queue is applied in ONE transaction:
//
//   - before every read of the database (registered, hence LiveObjects, the
//     leak report and tools), so a reader always sees every create and
//     destroy that returned before it: the registry is exact at every read;
//   - when the queue reaches flushAt distinct objects, so a program that
//     never reads the registry keeps a bounded queue.
//
// Within the queue only the last change of an object matters: an insert
// replaces the stored record (the id index is unique), a delete removes it.
// An object created and destroyed between two flushes, whose key the
// database does not hold, leaves no trace: the registrar keeps the set of
// keys the database holds (reg.stored) to know that without a read
// transaction (~0.8 µs each). The database
// itself is built on the first flush, which keeps go-memdb out of process
// start (see start_to_first_malloc_ms in docs/benchmarks.md).
//
// The schema has one index, the unique id: a second (per-device) index
// made each change ~2.5× dearer (4.5 against 1.7 µs per change in a batch
// of 1000) and nothing queried it; the few per-device questions scan.
//
// Lock order: reg.mu is a leaf taken under Runtime.Mu (callers of register /
// unregister hold it) or alone (readers); nothing is locked under reg.mu
// but memdb's own writer lock.

const (
	tableDevices      = "devices"
	tableContexts     = "contexts"
	TableStreams      = "streams"
	TableEvents       = "events"
	TableNotifies     = "notifies"
	TableCntNotifies  = "cntnotifies"
	TableLabels       = "labels"
	TableLabelLists   = "labellists"
	TableVMMHandles   = "vmmhandles"   // aclrtMallocPhysical handles, by handle
	TableReservations = "reservations" // aclrtReserveMemAddress ranges, by base address
	TableMemPools     = "mempools"     // aclrtMemPoolCreate pools, by handle
)

// regKinds lists the tables in leak-report order with the kind they print.
var regKinds = []struct{ table, kind string }{
	{tableDevices, "device"}, {tableContexts, "context"},
	{TableStreams, "stream"}, {TableEvents, "event"},
	{TableNotifies, "notify"}, {TableCntNotifies, "cnt notify"},
	{TableLabels, "label"}, {TableLabelLists, "label list"},
	{TableVMMHandles, "physical memory"}, {TableReservations, "address reservation"},
	{TableMemPools, "memory pool"},
}

// ProcessWide is the Device of records that belong to no device (address
// reservations); the leak report prints "process" for it.
const ProcessWide = -1

// Record is one registered object. Stored records are never mutated: a
// change is a new record inserted in a new transaction.
type Record struct {
	ID      uint64 // handle (contexts, streams, events) or device id
	Device  int
	Owner   uint64 // owning context handle; 0 for devices
	Summary string // what the leak report prints
}

func recordSchema(name string) *memdb.TableSchema {
	return &memdb.TableSchema{
		Name: name,
		Indexes: map[string]*memdb.IndexSchema{
			"id": {Name: "id", Unique: true, Indexer: &memdb.UintFieldIndex{Field: "ID"}},
		},
	}
}

// Every table has the same shape (recordSchema), so one schema function
// serves them all.
func registrySchema() *memdb.DBSchema {
	tables := make(map[string]*memdb.TableSchema, len(regKinds))
	for _, k := range regKinds {
		tables[k.table] = recordSchema(k.table)
	}
	return &memdb.DBSchema{Tables: tables}
}

// FlushAt bounds the queue; one transaction of this many changes costs
// about 2 ms here (BenchmarkRegistryFlush).
const FlushAt = 1024

// regKey names one object of one table.
type regKey struct {
	table string
	id    uint64
}

// Reg is the registry and its queue of unapplied changes.
var Reg struct {
	Mu      sync.Mutex          // guards the fields below
	db      *memdb.MemDB        // nil until the first flush
	Pending map[regKey]*Record  // last change per object: a record to insert, nil to delete
	stored  map[regKey]struct{} // keys the database holds: lets a queued change be dropped without a read transaction
}

// Register records rec as alive in table.
func Register(table string, rec Record) {
	queueChange(regKey{table, rec.ID}, &rec)
}

// Unregister records that the object with id in table is gone.
func Unregister(table string, id uint64) {
	queueChange(regKey{table, id}, nil)
}

// hexStr is fmt's %#x of v, for the summaries registered on the paths
// every process takes (device, context, default stream) and on creations
// a program may make by the thousand (streams, events): fmt's printer
// pool is one more fresh page a start writes, and a Sprintf costs more
// than the rest of a registration.
func hexStr(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// RegisterHandle records the handle h of an object of context c (notifies,
// counting notifies, labels, label lists) as alive in table; one line at
// each creation site.
func RegisterHandle(table string, h Handle, c *Context, what string) {
	rec := Record{ID: uint64(h), Device: ProcessWide, Summary: fmt.Sprintf("%s %#x", what, uintptr(h))}
	if c != nil {
		rec.Owner = uint64(c.H)
		rec.Summary += fmt.Sprintf(" of context %#x", uintptr(c.H))
		if c.Dev != nil {
			rec.Device = int(c.Dev.ID)
		}
	}
	Register(table, rec)
}

// UnregisterIf unregisters id from table when err is nil and returns err,
// so that a release call site stays one line: return f(unregisterIf(..., call())).
func UnregisterIf(table string, id uint64, err error) error {
	if err == nil {
		Unregister(table, id)
	}
	return err
}

// Forget drops every record of tables: aclFinalize uses it for objects that
// die with the node (VMM handles and reservations) rather than through
// their release calls.
func Forget(tables ...string) {
	Reg.Mu.Lock()
	defer Reg.Mu.Unlock()
	if Reg.Pending == nil {
		Reg.Pending = make(map[regKey]*Record)
	}
	for _, t := range tables {
		for k := range Reg.Pending {
			if k.table == t {
				delete(Reg.Pending, k)
			}
		}
		for k := range Reg.stored {
			if k.table == t {
				Reg.Pending[k] = nil
			}
		}
	}
}

func queueChange(k regKey, rec *Record) {
	Reg.Mu.Lock()
	defer Reg.Mu.Unlock()
	if Reg.Pending == nil {
		Reg.Pending = make(map[regKey]*Record)
	}
	if _, ok := Reg.stored[k]; !ok && rec == nil {
		// Never flushed (created and destroyed since the last flush, or
		// never registered): nothing for the database to forget.
		delete(Reg.Pending, k)
		return
	}
	Reg.Pending[k] = rec
	if len(Reg.Pending) >= FlushAt {
		flushLocked()
	}
}

// flushLocked applies the queued changes in one transaction and returns
// the database. Precondition: reg.mu held.
func flushLocked() *memdb.MemDB {
	if Reg.db == nil {
		db, err := memdb.NewMemDB(registrySchema())
		if err != nil {
			panic(fmt.Sprintf("acl: registry schema: %v", err))
		}
		Reg.db = db
		Reg.stored = make(map[regKey]struct{})
	}
	if len(Reg.Pending) == 0 {
		return Reg.db
	}
	txn := Reg.db.Txn(true)
	defer txn.Abort()
	for k, rec := range Reg.Pending {
		if rec != nil {
			if err := txn.Insert(k.table, rec); err != nil {
				panic(fmt.Sprintf("acl: registry insert into %s: %v", k.table, err))
			}
			continue
		}
		// Only keys in reg.stored queue a delete (queueChange).
		if err := txn.Delete(k.table, &Record{ID: k.id}); err != nil {
			panic(fmt.Sprintf("acl: registry delete from %s: %v", k.table, err))
		}
	}
	txn.Commit()
	for k, rec := range Reg.Pending {
		if rec != nil {
			Reg.stored[k] = struct{}{}
		} else {
			delete(Reg.stored, k)
		}
	}
	clear(Reg.Pending)
	return Reg.db
}

// RegistryDB applies the queue and returns the database, current as of
// every register / unregister that returned before the call.
func RegistryDB() *memdb.MemDB {
	Reg.Mu.Lock()
	defer Reg.Mu.Unlock()
	return flushLocked()
}

// Registered returns every record of table, ordered by id.
func Registered(table string) []Record {
	txn := RegistryDB().Txn(false)
	defer txn.Abort()
	it, err := txn.Get(table, "id")
	if err != nil {
		panic(fmt.Sprintf("acl: registry scan of %s: %v", table, err))
	}
	var out []Record
	for o := it.Next(); o != nil; o = it.Next() {
		out = append(out, *o.(*Record))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Live is one object still alive, for leak reports and tools.
type Live struct {
	Kind    string // a kind of regKinds, or "allocation"
	Device  int    // −1 (processWide) for objects of no device
	Summary string
}

// LiveObjects lists every object still alive: every registered object
// (regKinds), every device allocation, every allocated pool block and
// every model run instance.
func LiveObjects() []Live {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return LiveLocked()
}

// LiveLocked is LiveObjects. Precondition: Runtime.Mu held.
func LiveLocked() []Live {
	var out []Live
	for _, tk := range regKinds {
		for _, r := range Registered(tk.table) {
			out = append(out, Live{Kind: tk.kind, Device: r.Device, Summary: r.Summary})
		}
	}
	for _, d := range Runtime.Devs {
		if d == nil {
			continue
		}
		for _, a := range d.Allocations() {
			out = append(out, Live{Kind: "allocation", Device: int(d.ID),
				Summary: fmt.Sprintf("%#x: %d bytes (policy %d)", a.Base, a.Size, a.Policy)})
		}
	}
	out = append(out, LivePoolBlocks()...)
	return append(out, liveModelRIs()...)
}
