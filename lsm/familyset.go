package lsm

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// familySet is the part of a MANIFEST about column families other than
// the default: each one's name, version and log number, rebuilt from the
// family records of edit_family.go. The default family's state is
// DB.def (family.go), so a MANIFEST without families
// leaves the set empty. Its methods run with DB.mu held.
type familySet struct {
	// live are the families created and not dropped, by ascending id.
	// Their versions hold no references on their files until the
	// families are opened.
	live []*family
	// maxID is the highest family id ever created (tag 203): ids are not
	// reused after a drop.
	maxID uint32
}

// find returns the live family id, or nil.
func (s *familySet) find(id uint32) *family {
	i, ok := slices.BinarySearchFunc(s.live, id, familyByID)
	if !ok {
		return nil
	}
	return s.live[i]
}

// familyByID orders families by id for binary search.
func familyByID(f *family, id uint32) int { return cmp.Compare(f.id, id) }

// replay applies a replayed edit of a family other than the default: an
// add creates the family with no tables, a drop forgets it (its tables
// then belong to no version), any other edit changes its version and log
// number. An add of a live family, or a drop or change of one that is
// not live, is ErrCorruptManifest.
func (s *familySet) replay(e *versionEdit, numLevels int) error {
	if e.hasMaxFamily {
		s.maxID = max(s.maxID, e.maxFamily)
	}
	if e.family == 0 {
		return nil
	}
	f := s.find(e.family)
	switch {
	case e.addFamily:
		if f != nil {
			return fmt.Errorf("%w: column family %d (%s) added twice", ErrCorruptManifest, e.family, e.familyName)
		}
		v, _ := (*version)(nil).apply(&versionEdit{}, numLevels)
		f = newFamily(e.family, e.familyName, numLevels)
		f.current = v
		i, _ := slices.BinarySearchFunc(s.live, f.id, familyByID)
		s.live = slices.Insert(s.live, i, f)
		s.maxID = max(s.maxID, f.id)
	case f == nil:
		return fmt.Errorf("%w: edit of column family %d, which is not live", ErrCorruptManifest, e.family)
	case e.dropFamily:
		s.live = slices.DeleteFunc(s.live, func(g *family) bool { return g == f })
		return nil
	}
	if e.hasLogNumber {
		f.logNumber = max(f.logNumber, e.logNumber) // only grows (versionSet.recover)
	}
	v, err := f.current.apply(e, max(numLevels, maxLevelIn(e, f.current)))
	if err != nil {
		return fmt.Errorf("column family %s: %w", f.name, err)
	}
	f.current = v
	return nil
}

// checkLevels refuses tables left beyond numLevels in any family once
// the whole MANIFEST is replayed.
func (s *familySet) checkLevels(numLevels int) error {
	for _, f := range s.live {
		v, err := f.current.apply(&versionEdit{}, numLevels)
		if err != nil {
			return fmt.Errorf("column family %s: %w", f.name, err)
		}
		f.current = v
	}
	return nil
}

// snapshot returns the records a new MANIFEST holds for the families
// after the default's snapshot: one edit per live family naming it, its
// log number, its tables and its blob files with their garbage. The default's snapshot carries the max
// family id when any family was ever created.
func (s *familySet) snapshot(def *versionEdit) []*versionEdit {
	if s.maxID > 0 {
		def.hasMaxFamily, def.maxFamily = true, s.maxID
	}
	edits := make([]*versionEdit, 0, len(s.live))
	for _, f := range s.live {
		e := &versionEdit{familyEdit: familyEdit{family: f.id, addFamily: true, familyName: f.name}}
		e.setLogNumber(f.logNumber)
		for level, files := range f.current.levels {
			for _, m := range files {
				e.added = append(e.added, newFileEntry{level: level, meta: m})
			}
		}
		f.current.snapshotBlobs(e)
		edits = append(edits, e)
	}
	return edits
}

// errFamilyNotFound is the error of a read-only open naming a family the
// DB does not have, in RocksDB's words ("Column family not found: " and
// the name).
var errFamilyNotFound = errors.New("Invalid argument: Column family not found: ")

// keepNamed is a read-only open's choice of families, as RocksDB's
// OpenForReadOnly makes it: a name no live family has is
// errFamilyNotFound (the first such name), and the live families that
// opened does not name are forgotten, so that they take no memtable and
// no reader reaches them. Their versions keep their file references: a
// read-only DB never deletes a file.
func (s *familySet) keepNamed(opened []string) error {
	for _, name := range opened {
		if name != defaultFamilyName && !slices.ContainsFunc(s.live, func(f *family) bool { return f.name == name }) {
			return fmt.Errorf("%w%s", errFamilyNotFound, name)
		}
	}
	s.live = slices.DeleteFunc(s.live, func(f *family) bool { return !slices.Contains(opened, f.name) })
	return nil
}

// errFamiliesNotOpened is the error of opening a DB whose MANIFEST holds
// families besides the default without naming them, in RocksDB's words
// ("Column families not opened: " and the names by id, comma separated).
var errFamiliesNotOpened = errors.New("Invalid argument: Column families not opened: ")

// notNamed returns errFamiliesNotOpened naming the live families that
// opened does not name, or nil when it names them all.
func (s *familySet) notNamed(opened []string) error {
	var names []string
	for _, f := range s.live {
		if !slices.Contains(opened, f.name) {
			names = append(names, f.name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return fmt.Errorf("%w%s", errFamiliesNotOpened, strings.Join(names, ", "))
}
