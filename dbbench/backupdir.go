package dbbench

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/internal/osfile"
)

// A backup directory (--backup_dir) of the engines without a backup
// engine of their own (native, pebble) holds numbered backups, each a
// checkpoint of the DB (engine.Checkpointer) copied file by file:
//
//	BACKUP_DIR/LOCK          empty; locked (flock) while a backup or a
//	                         restore uses the directory, never deleted
//	BACKUP_DIR/LATEST        the number of the newest complete backup, in
//	                         decimal, then a newline
//	BACKUP_DIR/meta/<n>      backup n's list of files, text (below)
//	BACKUP_DIR/private/<n>/  backup n's files, a DB directory's files
//	                         (flat: no subdirectories)
//	BACKUP_DIR/private/<n>.checkpoint/
//	                         while backup n is made: the engine's
//	                         checkpoint, removed once copied
//
// meta/<n> is lines of text, each ended by a newline:
//
//	godbbench backup <n> engine <name>
//	<file name> <size in bytes, decimal> <CRC-32C of the file, 8 lower-case hex digits>
//	...
//
// with one line per file of private/<n>, sorted by name. meta/<n> is
// written (to a temporary name, synced, renamed) only after every file is
// copied and synced, and LATEST only after meta/<n>, so a backup without
// its meta file was never finished. A restore reads every file of the
// latest backup and checks its size and CRC-32C against meta/<n> before
// it writes anything.
//
// Data safety: a directory that holds a database (holdsDatabase) is
// refused as a backup directory. A backup holds LOCK exclusively and a
// restore holds it shared, so a second process backing up into the directory, or
// restoring from it while a backup is made, is refused ("IO error: While
// lock file: BACKUP_DIR/LOCK: Resource temporarily unavailable", RocksDB's
// words for a held DB) before it reads or writes anything. Making a backup deletes the older backups (db_bench's
// destroy_old_data) but only the files their meta files name, then their
// emptied directories; a meta file this format does not describe, or a
// backup directory holding a file its meta file does not name, stops the
// backup with an error before it deletes anything of that backup. A restore never deletes a
// file: it refuses a --restore_dir that holds any DB file (CURRENT,
// MANIFEST-*, OPTIONS-*, *.sst, *.blob, *.log, or a name the backup holds).

const backupLockName = "LOCK"

// lockBackupDir locks dir's LOCK, exclusively for a backup and shared
// for a restore, and returns what releases it. A restore from a directory
// it may not write, where no LOCK exists (no backup of this db_bench ever
// ran there), goes on unlocked.
func lockBackupDir(dir string, exclusive bool) (io.Closer, error) {
	if err := holdsDatabase(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, backupLockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil && !exclusive {
		if f, err = os.Open(path); errors.Is(err, os.ErrNotExist) {
			return io.NopCloser(nil), nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("IO error: While open a file for lock: %s: %v", path, err)
	}
	if err := osfile.Flock(f, exclusive); err != nil {
		f.Close()
		if errors.Is(err, osfile.ErrWouldBlock) {
			return nil, fmt.Errorf("IO error: While lock file: %s: Resource temporarily unavailable", path)
		}
		return nil, fmt.Errorf("IO error: While lock file: %s: %v", path, err)
	}
	return f, nil
}

// holdsDatabase refuses a backup directory that is a database's directory
// (its CURRENT, Pebble's MANIFEST marker or RocksDB's IDENTITY is there):
// the DB's LOCK would be the backup's, and opening and closing it would
// drop the record lock a Pebble or RocksDB DB of this process holds on it
// (POSIX record locks end when the process closes any descriptor of the
// file).
func holdsDatabase(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil // opening LOCK reports it
	}
	for _, e := range ents {
		if n := e.Name(); n == "CURRENT" || n == "IDENTITY" || strings.HasPrefix(n, "marker.manifest.") {
			return fmt.Errorf("Invalid argument: %s holds a database (%s is there); a backup directory must be one of its own", dir, n)
		}
	}
	return nil
}

// backupFile is one line of a meta file.
type backupFile struct {
	name string
	size int64
	crc  uint32
}

const backupMetaHead = "godbbench backup "

func backupMetaPath(dir string, n int) string { return filepath.Join(dir, "meta", strconv.Itoa(n)) }
func backupFilesDir(dir string, n int) string {
	return filepath.Join(dir, "private", strconv.Itoa(n))
}

// readBackupMeta parses meta/<n>.
func readBackupMeta(dir string, n int) ([]backupFile, error) {
	path := backupMetaPath(dir, n)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], backupMetaHead+strconv.Itoa(n)+" engine ") {
		return nil, fmt.Errorf("Corruption: %s is not a backup meta file of this db_bench", path)
	}
	files := make([]backupFile, 0, len(lines)-1)
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 3 {
			return nil, fmt.Errorf("Corruption: %s: bad line %q", path, l)
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		crc, err2 := strconv.ParseUint(f[2], 16, 32)
		if err1 != nil || err2 != nil || size < 0 || f[0] != filepath.Base(f[0]) || f[0] == "." || f[0] == ".." {
			return nil, fmt.Errorf("Corruption: %s: bad line %q", path, l)
		}
		files = append(files, backupFile{name: f[0], size: size, crc: uint32(crc)})
	}
	return files, nil
}

// writeBackupMeta writes meta/<n> through a synced temporary file.
func writeBackupMeta(dir string, n int, engineName string, files []backupFile) error {
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	var b strings.Builder
	fmt.Fprintf(&b, "%s%d engine %s\n", backupMetaHead, n, engineName)
	for _, f := range files {
		fmt.Fprintf(&b, "%s %d %08x\n", f.name, f.size, f.crc)
	}
	if err := mkdirDurable(filepath.Join(dir, "meta")); err != nil {
		return err
	}
	return writeFileAtomic(backupMetaPath(dir, n), b.String())
}

// writeFileAtomic writes path through path.tmp, synced and renamed, and
// syncs the directory.
func writeFileAtomic(path, content string) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp) // the temporary file is ours
		return err
	}
	return osfile.SyncDir(filepath.Dir(path))
}

// latestBackup reads LATEST.
func latestBackup(dir string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, "LATEST"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("Not found: no backup in %s", dir)
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("Corruption: %s holds %q, not a backup number", filepath.Join(dir, "LATEST"), data)
	}
	return n, nil
}

// removeOldBackups deletes every backup of dir, only the files their meta
// files name, then their emptied directories, meta files and LATEST.
func removeOldBackups(dir string) error {
	metas, err := os.ReadDir(filepath.Join(dir, "meta"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, m := range metas {
		n, err := strconv.Atoi(m.Name())
		if err != nil || n <= 0 {
			if strings.HasSuffix(m.Name(), ".tmp") {
				continue // an interrupted meta write; harmless
			}
			return fmt.Errorf("Invalid argument: %s holds %s, which this db_bench did not write; not deleting old backups", dir, filepath.Join("meta", m.Name()))
		}
		files, err := readBackupMeta(dir, n)
		if err != nil {
			return fmt.Errorf("%v; not deleting old backups", err)
		}
		if err := onlyNamedFiles(backupFilesDir(dir, n), files); err != nil {
			return err
		}
		for _, f := range files {
			if err := os.Remove(filepath.Join(backupFilesDir(dir, n), f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		if err := os.Remove(backupFilesDir(dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := os.Remove(backupMetaPath(dir, n)); err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, "LATEST")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// onlyNamedFiles fails, before anything is deleted, when dir holds an
// entry that files does not name.
func onlyNamedFiles(dir string, files []backupFile) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	named := make(map[string]bool, len(files))
	for _, f := range files {
		named[f.name] = true
	}
	for _, e := range ents {
		if !named[e.Name()] {
			return fmt.Errorf("Invalid argument: %s holds %s, which its backup's meta file does not name; not deleting old backups", dir, e.Name())
		}
	}
	return nil
}

// copyChecked copies from to to (created, must not exist), at most
// limiter's rate when limiter is not nil, synced, and returns the size
// and CRC-32C of what it copied.
func copyChecked(from, to string, limiter *rateLimiter, chunk int) (size int64, crc uint32, err error) {
	src, err := os.Open(from)
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, 0, err
	}
	size, crc, err = streamChecked(src, dst, limiter, chunk)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return size, crc, err
}

// streamChecked copies src to dst (nil: only reads) in pieces of at most
// chunk bytes, each let through by limiter when it is not nil, and returns
// the size and CRC-32C of the bytes.
func streamChecked(src io.Reader, dst io.Writer, limiter *rateLimiter, chunk int) (size int64, crc uint32, err error) {
	r := bufio.NewReaderSize(src, chunk)
	buf := make([]byte, chunk)
	for {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if limiter != nil {
				limiter.request(int64(n))
			}
			crc = crc32.Update(crc, castagnoli, buf[:n])
			size += int64(n)
			if dst != nil {
				if _, err := dst.Write(buf[:n]); err != nil {
					return size, crc, err
				}
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return size, crc, nil
		}
		if rerr != nil {
			return size, crc, rerr
		}
	}
}

// isDBFileName reports whether name is a file of a database directory of
// any engine here: one a restore must not overwrite.
func isDBFileName(name string) bool {
	return name == "CURRENT" || strings.HasPrefix(name, "MANIFEST-") || strings.HasPrefix(name, "OPTIONS-") ||
		strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".blob") || strings.HasSuffix(name, ".log") ||
		strings.HasPrefix(name, "marker.")
}
