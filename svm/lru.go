package svm

// lruList orders the pages resident on one device by last access, most
// recent at the front. Nodes are intrusive and recycled, so a fault does not
// allocate once the list has warmed up; a page's node on each device is found
// through the index map keyed by the page's global number (address >> shift).
type lruList struct {
	head  lruNode // sentinel: head.next is the most recent, head.prev the least
	index map[uintptr]*lruNode
	spare []*lruNode
}

type lruNode struct {
	r          *rng
	i          int
	prev, next *lruNode
}

func (l *lruList) init() {
	l.head.prev, l.head.next = &l.head, &l.head
	l.index = make(map[uintptr]*lruNode)
}

func (l *lruList) unlink(n *lruNode) {
	n.prev.next, n.next.prev = n.next, n.prev
}

func (l *lruList) pushFront(n *lruNode) {
	n.prev, n.next = &l.head, l.head.next
	l.head.next.prev = n
	l.head.next = n
}

// touch moves the page to the front, adding it if absent.
func (l *lruList) touch(key uintptr, r *rng, i int) {
	if n, ok := l.index[key]; ok {
		l.unlink(n)
		l.pushFront(n)
		return
	}
	var n *lruNode
	if k := len(l.spare); k > 0 {
		n, l.spare = l.spare[k-1], l.spare[:k-1]
	} else {
		n = new(lruNode)
	}
	n.r, n.i = r, i
	l.index[key] = n
	l.pushFront(n)
}

func (l *lruList) remove(key uintptr) {
	n, ok := l.index[key]
	if !ok {
		return
	}
	l.unlink(n)
	delete(l.index, key)
	*n = lruNode{}
	l.spare = append(l.spare, n)
}

// oldest returns the least recently used page, or nil.
func (l *lruList) oldest() *lruNode {
	if l.head.prev == &l.head {
		return nil
	}
	return l.head.prev
}
