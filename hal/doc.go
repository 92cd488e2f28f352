// Package hal implements the semantics of the driver HAL (libascend_hal.so):
// halMem*, drvMem*, VMM, shared handles and device information, over the
// same emu device model as ACL, with drvError_t results. It has its own
// support table. It never imports libfake or "C".
package hal
