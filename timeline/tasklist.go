package timeline

import "sort"

// chunkTasks is the size of one chunk of a taskList.
const chunkTasks = 4096

// taskList holds a device's tasks in fixed-size chunks: appending never
// copies what is there (a growing slice of 300-byte records would move
// them all at every doubling, on the launch path).
type taskList struct {
	chunks []*[chunkTasks]Task
	n      int
}

func (l *taskList) len() int { return l.n }

// at returns task i. Precondition: 0 <= i < len.
func (l *taskList) at(i int) *Task { return &l.chunks[i/chunkTasks][i%chunkTasks] }

// push appends a copy of t and returns it.
func (l *taskList) push(t *Task) *Task {
	if l.n == len(l.chunks)*chunkTasks {
		l.chunks = append(l.chunks, new([chunkTasks]Task))
	}
	p := l.at(l.n)
	*p = *t
	l.n++
	return p
}

// bySeq returns the task with submission number seq, or nil.
func (l *taskList) bySeq(seq uint64) *Task {
	i := sort.Search(l.n, func(i int) bool { return l.at(i).Seq >= seq })
	if i == l.n || l.at(i).Seq != seq {
		return nil
	}
	return l.at(i)
}
