package sst

import (
	"bytes"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
)

// checkBlockOrder is the writer's key-order invariant at the block encoder
// (invariants builds): every entry of a key block sorts strictly after the
// one before it in internal-key order. Writer.Add rejects misordered input
// with an error before it gets here, so a violation is a bug in this
// package.
func (b *keyBlockWriter) checkOrder(key []byte, trailer base.Trailer) {
	if b.entries > 0 && base.Compare(key, trailer, b.lastKey, b.lastTrailer) <= 0 {
		invariants.Violated("sst: block entry (%q, seq %d) does not sort after (%q, seq %d)",
			key, trailer.Seq(), b.lastKey, b.lastTrailer.Seq())
	}
}

// checkSeparator is the index invariant (invariants builds): a data block's
// separator sep lies at or after the block's last user key last and before
// the next block's first user key next (nil at the end of the table), or
// equals both when one user key's versions span the two blocks.
func checkSeparator(last, sep, next []byte) {
	below := next == nil || bytes.Compare(sep, next) < 0 || (bytes.Equal(last, next) && bytes.Equal(sep, last))
	if bytes.Compare(sep, last) < 0 || !below {
		invariants.Violated("sst: index separator %q is not between block end %q and next block start %q", sep, last, next)
	}
}
