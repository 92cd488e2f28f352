// Package npuemu is the root of the module github.com/npuemu/npuemu, an
// emulator of a Huawei Ascend NPU for programs written against CANN. It
// holds no code that a program uses: its tests (layout_test.go) check the
// shape of the repository that every other package relies on: the fixed
// top-level layout, the import rules between the layers (emu, tsfw, svm and
// abi never reach acl, hal, libfake or purego; only libfake uses cgo), one
// package doc comment per package, and unsafe only in *_unsafe.go files.
//
// The map is ARCHITECTURE.md in the shared design folder; the contracts
// between packages are in docs/internals.md.
package npuemu
