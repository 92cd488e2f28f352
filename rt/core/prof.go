package core

// MstxToolID is what mstxGetToolId reports: the emulator intercepts mstx
// as msprof does (MSTX_TOOL_MSPROF_ID).
const MstxToolID = 0x1000

// OpDescSize is the size of one op record (aclprofGetOpDescSize).
const OpDescSize = 80
