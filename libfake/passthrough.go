package main

// The passthrough loader (passthrough.c) calls dlmopen and dlinfo, which
// live in libdl on C libraries older than glibc 2.34.

// #cgo LDFLAGS: -ldl
import "C"
