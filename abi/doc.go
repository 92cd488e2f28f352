// Package abi holds the data of the vendor C ABI that npuemu reproduces:
// aclError and drvError_t codes with their names and messages, the numeric
// constants of our headers in emu/include (generated into z*.go files by
// `make generate`, never typed by hand), the list of spec symbols, and the
// support-table types. It models no behaviour and imports nothing of the
// project, so every layer (emu, tsfw, svm, acl, hal, libfake) may use it.
//
// Errors: one type, Error, carries an aclError code; DrvError carries a
// drvError_t; DevError, the device model's (emu, tsfw, svm), carries a
// DevKind, which the one table of deverr.go converts to its aclError, rt
// and drvError_t codes. Code and message tables live here and nowhere else.
// A code becomes a plain integer only at the libfake boundary (CodeOf,
// RTCodeOf, DrvCodeOf).
package abi
