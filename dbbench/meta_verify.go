package dbbench

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// metaVerify is db_bench's verify (VerifyDBFromDB): it opens --truth_db
// read-only with the same engine and options, checks that every entry of
// the truth DB reads back from the DB with Get, then walks both in step:
// the DB may hold no entry the truth DB lacks, and the truth DB none
// left over. db_bench asserts each check (aborting on the first
// difference); here the first difference is reported with the key and
// the run ends with exit 1. Keys are compared as well as values.
func (r *runner) metaVerify() error {
	fail := func(format string, a ...any) error {
		r.out.Flush()
		msg := fmt.Sprintf(format, a...)
		r.errf("%s\n", msg)
		return errExit{msg}
	}
	opts := *r.opts
	opts.ReadOnly = true
	truth, err := r.opener.Open(r.cfg.truthDB, &opts, r.errw)
	if err != nil {
		return fail("open error: %v", err)
	}
	defer truth.Close()
	truthIt, err := truth.NewIter(&engine.IterOptions{})
	if err != nil {
		return fail("verify: iterator on the truth DB: %v", err)
	}
	defer truthIt.Close()
	r.out.Flush()
	r.errf("Verifying db >= truth_db with ::Get...\n")
	var got []byte
	take := func(v []byte) { got = append(got[:0], v...) }
	for valid := truthIt.First(); valid; valid = truthIt.Next() {
		want, err := truthIt.Value()
		if err != nil {
			return fail("verify: truth DB value of key %x: %v", truthIt.Key(), err)
		}
		found, err := r.db.Get(truthIt.Key(), take)
		switch {
		case err != nil:
			return fail("verify: Get of truth key %x: %v", truthIt.Key(), err)
		case !found:
			return fail("verify: truth key %x is missing from the DB", truthIt.Key())
		case !bytes.Equal(got, want):
			return fail("verify: key %x has a value in the DB other than the truth DB's", truthIt.Key())
		}
	}
	if err := truthIt.Error(); err != nil {
		return fail("verify: iterator on the truth DB: %v", err)
	}
	r.errf("Verifying db == truth_db...\n")
	dbIt, err := r.db.NewIter(&engine.IterOptions{})
	if err != nil {
		return fail("verify: iterator on the DB: %v", err)
	}
	defer dbIt.Close()
	truthValid := truthIt.First()
	for valid := dbIt.First(); valid; valid = dbIt.Next() {
		if !truthValid {
			return fail("verify: the DB holds key %x past the truth DB's last key", dbIt.Key())
		}
		v, err := dbIt.Value()
		if err != nil {
			return fail("verify: DB value of key %x: %v", dbIt.Key(), err)
		}
		tv, err := truthIt.Value()
		if err != nil {
			return fail("verify: truth DB value of key %x: %v", truthIt.Key(), err)
		}
		if !bytes.Equal(dbIt.Key(), truthIt.Key()) || !bytes.Equal(v, tv) {
			return fail("verify: the DB's key %x differs from the truth DB's key %x or its value", dbIt.Key(), truthIt.Key())
		}
		truthValid = truthIt.Next()
	}
	for _, it := range []engine.Iterator{dbIt, truthIt} {
		if err := it.Error(); err != nil {
			return fail("verify: %v", err)
		}
	}
	if truthValid {
		return fail("verify: the truth DB holds key %x that the DB lacks", truthIt.Key())
	}
	r.errf("...Verified\n")
	return nil
}
