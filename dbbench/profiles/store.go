package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/godbbench/godbbench/engine"
)

// The five stores of a run, each its own engine.DB in its own directory.
const (
	storeProfiles = iota
	storeEmail
	storeCountryStatus
	storeCreatedAt
	storeReputation
	storeCount
)

// storeNames are the sub-directory names of the stores, as in the reference.
var storeNames = [storeCount]string{
	"profiles", "email-index", "country-status-index", "created-at-index", "reputation-index",
}

// StoreDirs returns the directories of the five stores under dir.
func StoreDirs(dir string) []string {
	out := make([]string, len(storeNames))
	for i, name := range storeNames {
		out[i] = filepath.Join(dir, name)
	}
	return out
}

// errNotFound reports an id or email the stores should hold but do not.
var errNotFound = errors.New("profiles: profile not found")

// scanBound says where an index walk stops.
type scanBound uint8

const (
	boundNone   scanBound = iota // walk until the limit (top reputation)
	boundPrefix                  // stop at the first key without the prefix
	boundUpTo                    // stop at the first key ordinally greater
)

// worker runs operations against the stores for one goroutine. It owns every
// buffer it uses, so steady-state operations allocate nothing in the driver
// (engines may still allocate, e.g. for a fresh iterator per scan, which the
// reference also creates per call).
type worker struct {
	dbs  *[storeCount]engine.DB
	gen  Generator
	wo   engine.WriteOptions
	sum  Checksum
	busy float64 // seconds this worker spent in the current phase

	key, bound, val, idv []byte
	start, stop          []byte // scan bounds, untouched by the gets inside a scan
	cur, next, old, row  Profile
	iterOpts             engine.IterOptions // no bounds, as the reference

	// Get callbacks, made once so that Get does not allocate a closure.
	decodeFn func([]byte)
	idFn     func([]byte)
	target   *Profile
	gotID    int64
	cbErr    error
}

func newWorker(dbs *[storeCount]engine.DB, gen Generator) *worker {
	w := &worker{dbs: dbs, gen: gen}
	w.decodeFn = w.decodeInto
	w.idFn = w.parseID
	return w
}

func (w *worker) decodeInto(v []byte) { w.cbErr = DecodeRecord(w.target, v) }

func (w *worker) parseID(v []byte) { w.gotID, w.cbErr = ParseUserID(v) }

// put writes one key of store s.
func (w *worker) put(s int, key, value []byte) error {
	if err := w.dbs[s].Put(key, value, &w.wo); err != nil {
		return fmt.Errorf("profiles: put into %s: %w", storeNames[s], err)
	}
	return nil
}

// del deletes one key of store s.
func (w *worker) del(s int, key []byte) error {
	if err := w.dbs[s].Delete(key, &w.wo); err != nil {
		return fmt.Errorf("profiles: delete from %s: %w", storeNames[s], err)
	}
	return nil
}

// insert writes profile id and its four index entries: five separate puts,
// no batch, as the reference does.
func (w *worker) insert(id int64) error {
	p := &w.cur
	w.gen.Create(p, id)
	w.idv = AppendUserID(w.idv[:0], id)
	w.val = AppendRecord(w.val[:0], p)
	if err := w.put(storeProfiles, w.idv, w.val); err != nil {
		return err
	}
	if err := w.put(storeEmail, p.Email, w.idv); err != nil {
		return err
	}
	w.key = AppendCountryStatusKey(w.key[:0], p.Country, p.Status, id)
	if err := w.put(storeCountryStatus, w.key, w.idv); err != nil {
		return err
	}
	w.key = AppendCreatedAtKey(w.key[:0], p.CreatedAt, id)
	if err := w.put(storeCreatedAt, w.key, w.idv); err != nil {
		return err
	}
	w.key = AppendReputationKey(w.key[:0], p.Reputation, id)
	return w.put(storeReputation, w.key, w.idv)
}

// getByID reads and decodes profile id into p; found is false when absent.
func (w *worker) getByID(id int64, p *Profile) (found bool, err error) {
	w.key = AppendUserID(w.key[:0], id)
	w.target, w.cbErr = p, nil
	found, err = w.dbs[storeProfiles].Get(w.key, w.decodeFn)
	if err != nil {
		return false, fmt.Errorf("profiles: get %d: %w", id, err)
	}
	if w.cbErr != nil {
		return false, fmt.Errorf("profiles: profile %d: %w", id, w.cbErr)
	}
	return found, nil
}

// mustGetByID is getByID for an id the stores must hold.
func (w *worker) mustGetByID(id int64, p *Profile) error {
	found, err := w.getByID(id, p)
	if err == nil && !found {
		err = fmt.Errorf("%w: id %d", errNotFound, id)
	}
	return err
}

// lookupByEmail regenerates id's email (as the reference does inside the
// timed loop), reads the email index, then the profile.
func (w *worker) lookupByEmail(id int64, p *Profile) error {
	w.bound = appendEmail(w.bound[:0], id)
	w.cbErr = nil
	found, err := w.dbs[storeEmail].Get(w.bound, w.idFn)
	if err != nil {
		return fmt.Errorf("profiles: get email of %d: %w", id, err)
	}
	if w.cbErr != nil {
		return fmt.Errorf("profiles: email index entry of %d: %w", id, w.cbErr)
	}
	if !found {
		return fmt.Errorf("%w: email %s", errNotFound, w.bound)
	}
	return w.mustGetByID(w.gotID, p)
}

// scanIndex walks store s from start (the first key when start is empty),
// taking the user ids of at most limit entries while the bound holds. With
// withProfiles it instead folds the profile of each entry
// into the checksum (missing profiles are skipped and do not count towards
// the limit), the reference's "query"; otherwise it folds the ids, its "scan".
func (w *worker) scanIndex(s int, start []byte, bound scanBound, stop []byte, limit int, withProfiles bool) error {
	it, err := w.dbs[s].NewIter(&w.iterOpts)
	if err != nil {
		return fmt.Errorf("profiles: iterator on %s: %w", storeNames[s], err)
	}
	var ok bool
	if len(start) == 0 {
		ok = it.First()
	} else {
		ok = it.SeekGE(start)
	}
	n := 0
	for ok && n < limit {
		k := it.Key()
		if bound == boundPrefix && !bytes.HasPrefix(k, stop) ||
			bound == boundUpTo && bytes.Compare(k, stop) > 0 {
			break
		}
		v, verr := it.Value()
		if verr != nil {
			it.Close()
			return fmt.Errorf("profiles: value in %s: %w", storeNames[s], verr)
		}
		id, perr := ParseUserID(v)
		if perr != nil {
			it.Close()
			return fmt.Errorf("profiles: entry in %s: %w", storeNames[s], perr)
		}
		if withProfiles {
			found, gerr := w.getByID(id, &w.row)
			if gerr != nil {
				it.Close()
				return gerr
			}
			if found {
				w.sum.AddProfile(&w.row)
				n++
			}
		} else {
			w.sum.AddInt64(id)
			n++
		}
		ok = it.Next()
	}
	if err := it.Error(); err != nil {
		it.Close()
		return fmt.Errorf("profiles: iterating %s: %w", storeNames[s], err)
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("profiles: closing iterator on %s: %w", storeNames[s], err)
	}
	return nil
}

// countryStatus runs one country/status scan or query (q = country*4+status).
func (w *worker) countryStatus(q uint8, limit int, withProfiles bool) error {
	c, s := countryCodes[q/4], statusValues[q%4]
	w.stop = append(w.stop[:0], c...)
	w.stop = append(w.stop, '|')
	w.stop = append(w.stop, s...)
	w.stop = append(w.stop, '|')
	return w.scanIndex(storeCountryStatus, w.stop, boundPrefix, w.stop, limit, withProfiles)
}

// createdAtRange runs one created-at scan or query over [from, to]: start at
// "{from:D20}|{0:D20}", stop after "{to:D20}|{MaxInt64:D20}".
func (w *worker) createdAtRange(from, to int64, limit int, withProfiles bool) error {
	w.start = AppendCreatedAtKey(w.start[:0], from, 0)
	w.stop = AppendCreatedAtKey(w.stop[:0], to, 1<<63-1)
	return w.scanIndex(storeCreatedAt, w.start, boundUpTo, w.stop, limit, withProfiles)
}

// topReputation runs one top-reputation scan or query from the first key.
func (w *worker) topReputation(limit int, withProfiles bool) error {
	return w.scanIndex(storeReputation, nil, boundNone, nil, limit, withProfiles)
}

// update reads profile id, computes its update and stores it the way the
// reference's stores do: read the old profile again, delete its
// country/status and reputation keys, put the new record, put the new
// country/status and reputation keys. It folds the updated profile.
func (w *worker) update(id int64) error {
	if err := w.mustGetByID(id, &w.cur); err != nil {
		return err
	}
	w.next.CopyFrom(&w.cur)
	w.gen.Update(&w.next)
	if err := w.mustGetByID(id, &w.old); err != nil {
		return err
	}
	o, p := &w.old, &w.next
	w.key = AppendCountryStatusKey(w.key[:0], o.Country, o.Status, o.UserID)
	if err := w.del(storeCountryStatus, w.key); err != nil {
		return err
	}
	w.key = AppendReputationKey(w.key[:0], o.Reputation, o.UserID)
	if err := w.del(storeReputation, w.key); err != nil {
		return err
	}
	w.idv = AppendUserID(w.idv[:0], p.UserID)
	w.val = AppendRecord(w.val[:0], p)
	if err := w.put(storeProfiles, w.idv, w.val); err != nil {
		return err
	}
	w.key = AppendCountryStatusKey(w.key[:0], p.Country, p.Status, p.UserID)
	if err := w.put(storeCountryStatus, w.key, w.idv); err != nil {
		return err
	}
	w.key = AppendReputationKey(w.key[:0], p.Reputation, p.UserID)
	if err := w.put(storeReputation, w.key, w.idv); err != nil {
		return err
	}
	w.sum.AddProfile(p)
	return nil
}
