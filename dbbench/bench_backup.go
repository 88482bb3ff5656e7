package dbbench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/osfile"
)

// backup and restore are db_bench's: backup makes a new backup of the DB
// in --backup_dir, deleting the older ones, at most --backup_rate_limit
// bytes per second; restore restores the latest backup into
// --restore_dir at most --restore_rate_limit bytes per second. The
// rocksdb engine uses RocksDB's BackupEngine (engine.BackupEngine); the
// others a checkpoint (engine.Checkpointer) copied into the layout of
// backupdir.go, whose files restore checks against their CRC-32Cs before
// it writes anything. Restore deletes no file: RocksDB's deletes every
// file of --restore_dir first, so on the rocksdb engine it refuses a
// directory holding any file (C++ db_bench restores over it). A failure prints its error and exits 1 (C++
// db_bench asserts).

// printBackupPaths prints the lines db_bench prints after "DB path" for
// backup and restore.
func (r *runner) printBackupPaths(name string) {
	switch name {
	case "backup":
		r.outf("Backup path: [%s]\n", r.cfg.backupDir)
	case "restore":
		r.outf("Backup path: [%s]\n", r.cfg.backupDir)
		r.outf("Restore path: [%s]\n", r.cfg.restoreDir)
	}
}

// backupLimiter is the limiter of rate bytes per second, nil for none,
// and the piece of a copy it lets through at a time.
func backupLimiter(rate uint64) (*rateLimiter, int) {
	const chunk = 64 << 10
	if rate == 0 {
		return nil, chunk
	}
	return newRateLimiter(float64(rate)), int(min(chunk, max(512, rate/10)))
}

// benchBackup is db_bench's Backup: a backup of the database of one
// selection draw into --backup_dir.
func benchBackup(r *runner, t *thread) error {
	selected, _ := r.selectDB(t)
	db := untraced(selected)
	if be, ok := r.opener.(engine.BackupEngine); ok {
		if err := be.Backup(db, r.cfg.backupDir, r.cfg.backupRateLimit); err != nil {
			return fmt.Errorf("backup: %v", err)
		}
		return nil
	}
	cp, ok := db.(engine.Checkpointer)
	if !ok {
		return fmt.Errorf("backup: the %s engine cannot make a checkpoint of its DB, which backup copies", r.opener.Info().Name)
	}
	if err := makeBackup(cp, r.cfg.backupDir, r.opener.Info().Name, r.cfg.backupRateLimit); err != nil {
		return fmt.Errorf("backup: %v", err)
	}
	return nil
}

// makeBackup makes backup 1 of dir from a checkpoint of db, after
// deleting the backups already there.
func makeBackup(db engine.Checkpointer, dir, engineName string, rate uint64) error {
	if err := holdsDatabase(dir); err != nil {
		return err
	}
	if err := mkdirDurable(filepath.Join(dir, "private")); err != nil {
		return err
	}
	lock, err := lockBackupDir(dir, true)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := removeOldBackups(dir); err != nil {
		return err
	}
	const n = 1
	stage := backupFilesDir(dir, n) + ".checkpoint"
	if _, err := os.Stat(stage); err == nil {
		return fmt.Errorf("Invalid argument: %s exists, left by an interrupted backup; remove it", stage)
	}
	if err := db.Checkpoint(stage); err != nil {
		return err
	}
	ents, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	into := backupFilesDir(dir, n)
	if err := os.Mkdir(into, 0o755); err != nil {
		return err
	}
	if err := osfile.SyncDir(filepath.Dir(into)); err != nil {
		return err
	}
	limiter, chunk := backupLimiter(rate)
	files := make([]backupFile, 0, len(ents))
	for _, e := range ents {
		if !e.Type().IsRegular() {
			return fmt.Errorf("Not implemented: the checkpoint holds %s, not a regular file", filepath.Join(stage, e.Name()))
		}
		size, crc, err := copyChecked(filepath.Join(stage, e.Name()), filepath.Join(into, e.Name()), limiter, chunk)
		if err != nil {
			return err
		}
		files = append(files, backupFile{name: e.Name(), size: size, crc: crc})
	}
	if err := osfile.SyncDir(into); err != nil {
		return err
	}
	// The checkpoint's files are the ones just listed; nothing else is removed.
	for _, e := range ents {
		if err := os.Remove(filepath.Join(stage, e.Name())); err != nil {
			return err
		}
	}
	if err := os.Remove(stage); err != nil {
		return err
	}
	if err := writeBackupMeta(dir, n, engineName, files); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "LATEST"), fmt.Sprintf("%d\n", n))
}

func benchRestore(r *runner, _ *thread) error {
	if be, ok := r.opener.(engine.BackupEngine); ok {
		// RocksDB's restore deletes every file of the directory first;
		// here it may only write into one without files.
		if err := refuseAnyFile(r.cfg.restoreDir); err != nil {
			return fmt.Errorf("restore: %v", err)
		}
		if err := be.Restore(r.cfg.backupDir, r.cfg.restoreDir, r.cfg.restoreRateLimit); err != nil {
			return fmt.Errorf("restore: %v", err)
		}
		return nil
	}
	if err := restoreBackup(r.cfg.backupDir, r.cfg.restoreDir, r.cfg.restoreRateLimit); err != nil {
		return fmt.Errorf("restore: %v", err)
	}
	return nil
}

// restoreBackup checks every file of the latest backup of dir, then copies
// them into into.
func restoreBackup(dir, into string, rate uint64) error {
	lock, err := lockBackupDir(dir, false)
	if err != nil {
		return err
	}
	defer lock.Close()
	n, err := latestBackup(dir)
	if err != nil {
		return err
	}
	files, err := readBackupMeta(dir, n)
	if err != nil {
		return err
	}
	from := backupFilesDir(dir, n)
	for _, f := range files {
		if err := checkBackupFile(filepath.Join(from, f.name), f); err != nil {
			return err
		}
	}
	if err := mkdirDurable(into); err != nil {
		return err
	}
	if err := refuseDBFiles(into, files); err != nil {
		return err
	}
	limiter, chunk := backupLimiter(rate)
	for _, f := range restoreOrder(files) {
		size, crc, err := copyChecked(filepath.Join(from, f.name), filepath.Join(into, f.name), limiter, chunk)
		if err != nil {
			return err
		}
		if size != f.size || crc != f.crc {
			return fmt.Errorf("Corruption: %s changed while it was restored", filepath.Join(from, f.name))
		}
	}
	return osfile.SyncDir(into)
}

// restoreOrder is files with the ones that name a DB's MANIFEST (CURRENT,
// Pebble's marker files) last: a restore that stops part-way (a kill, a
// full disk) then leaves no pointer to a MANIFEST missing or cut short,
// and the meta's name order put CURRENT before the MANIFEST.
func restoreOrder(files []backupFile) []backupFile {
	out := make([]backupFile, 0, len(files))
	var pointers []backupFile
	for _, f := range files {
		if f.name == "CURRENT" || strings.HasPrefix(f.name, "marker.") {
			pointers = append(pointers, f)
		} else {
			out = append(out, f)
		}
	}
	return append(out, pointers...)
}

// checkBackupFile reads path and compares it with its meta line.
func checkBackupFile(path string, want backupFile) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("Corruption: backup file missing: %v", err)
	}
	defer f.Close()
	size, crc, err := streamChecked(f, nil, nil, 64<<10)
	if err != nil {
		return err
	}
	if size != want.size {
		return fmt.Errorf("Corruption: File corrupted: %s is %d bytes, the backup's meta file records %d", path, size, want.size)
	}
	if crc != want.crc {
		return fmt.Errorf("Corruption: File corrupted: %s has CRC-32C %08x, the backup's meta file records %08x", path, crc, want.crc)
	}
	return nil
}

// refuseAnyFile fails when dir holds a file (a missing dir holds none).
func refuseAnyFile(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() {
			return fmt.Errorf("Invalid argument: %s holds %s: the engine's restore would delete every file there, so restore writes only into a directory without files", dir, e.Name())
		}
	}
	return nil
}

// refuseDBFiles fails when dir holds a file of a database or one the
// backup would write.
func refuseDBFiles(dir string, files []backupFile) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	ours := map[string]bool{}
	for _, f := range files {
		ours[f.name] = true
	}
	for _, e := range ents {
		if isDBFileName(e.Name()) || ours[e.Name()] {
			return fmt.Errorf("Invalid argument: %s holds %s: restore writes only into a directory without database files, and deletes none", dir, e.Name())
		}
	}
	return nil
}
