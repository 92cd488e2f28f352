// Package svm models shared virtual memory: address spaces whose pages live
// on the host or on a device, page tables with per-page residency, fault →
// migrate, prefetch, advise, eviction under oversubscription, and counters.
//
// svm imports nothing of the project but abi; it never imports acl, hal,
// libfake or purego.
package svm
