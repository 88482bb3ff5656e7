// Package archtest holds tests of the repository's structure: which
// packages may import which (docs/ARCHITECTURE.md, "Arrows"). It has no
// code of its own.
package archtest
