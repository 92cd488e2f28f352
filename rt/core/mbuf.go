package core

import (
	"github.com/npuemu/npuemu/hal"
)

// The two tags are one: either difference overflows handleKind otherwise.
const _ = KindMbuf - hal.MbufTag + (hal.MbufTag - KindMbuf)
