package lsm

import "sync"

// writeFromGoroutines commits writes batches from each of writers
// goroutines at once and returns the first error once all are done. fill
// is given write i of writer w in an empty batch, adds its records and
// returns its options; check, when not nil, runs after each write with its
// batch (sequence set).
func writeFromGoroutines(db *DB, writers, writes int, fill func(b *Batch, w, i int) WriteOptions, check func(b *Batch) error) error {
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := NewBatch()
			for i := range writes {
				b.Reset()
				wo := fill(b, w, i)
				err := db.Write(b, wo)
				if err == nil && check != nil {
					err = check(b)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
