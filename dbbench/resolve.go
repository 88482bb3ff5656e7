package dbbench

// resolve maps a benchmark name to its method and adjusts the per-benchmark
// counts exactly where db_bench's dispatch does (fillsync and fill100K divide
// num by 1000, readmissing lengthens the key, readrandomsmall divides reads,
// *whilewriting adds a writer thread, ...). Meta operations run here, in the
// main goroutine, and return a nil fn. known is false for an unknown name.
func (r *runner) resolve(name string) (spec benchSpec, known bool, err error) {
	spec.threads = int(r.cfg.threads)
	switch name {
	case "fillseq":
		spec.fresh, spec.fn = true, benchWriteSeq
	case "fillbatch":
		spec.fresh, spec.fn = true, benchWriteSeq
		r.entriesPerBatch = 1000
	case "fillrandom":
		spec.fresh, spec.fn = true, benchWriteRandom
	case "filluniquerandom":
		spec.fresh, spec.fn = true, benchWriteUniqueRandom
		if spec.threads > 1 {
			r.errf("filluniquerandom and fillanddeleteuniquerandom multithreaded not supported, use 1 thread")
			spec.threads = 1
		}
	case "fillseqdeterministic", "filluniquerandomdeterministic":
		// Not implemented (runItem skips them), but db_bench's dispatch
		// refuses them first unless auto compactions are off, and that
		// refusal ends the default --benchmarks list.
		if !r.cfg.disableAutoCompactions {
			r.out.Flush()
			r.errf("Please disable_auto_compactions in FillDeterministic benchmark\n")
			return spec, true, errExit{"auto compactions on"}
		}
		return spec, false, nil
	case "mergerandom", "readrandommergerandom":
		// Not implemented, but without --merge_operator db_bench refuses
		// them with this line on stdout and exit code 1.
		if r.cfg.mergeOperator == "" {
			r.outf("%-12s : skipped (--merge_operator is unknown)\n", name)
			return spec, true, errExit{"no merge operator"}
		}
		return spec, false, nil
	case "readwhilemerging":
		// Not implemented with a merge operator; without one, db_bench's
		// background merger fails on its first Merge and the run ends.
		if r.cfg.mergeOperator != "" {
			return spec, false, nil
		}
		spec.threads++
		spec.fn = benchMergeWithoutOperator
	case "overwrite":
		spec.fn = benchWriteRandom
	case "fillsync":
		spec.fresh, spec.fn = true, benchWriteRandom
		r.num /= 1000
		r.wo.Sync = true
	case "fill100K":
		spec.fresh, spec.fn = true, benchWriteRandom
		r.num /= 1000
		r.valueSize = 100 * 1000
		r.shape.fixed = r.valueSize
	case "readseq":
		spec.fn = benchReadSequential
	case "nextwithkey":
		spec.fn = benchNextWithKey
	case "readtocache":
		spec.fn = benchReadSequential
		spec.threads = 1
		r.reads = r.num
	case "readreverse":
		spec.fn = benchReadReverse
	case "readrandom":
		if r.cfg.multireadStride != 0 {
			r.errf("entries_per_batch = %d\n", r.entriesPerBatch)
		}
		spec.fn = benchReadRandom
	case "multireadrandom":
		r.errf("entries_per_batch = %d\n", r.entriesPerBatch)
		spec.fn = benchMultiReadRandom
	case "readmissing":
		r.keySize++
		spec.fn = benchReadRandom
	case "newiterator":
		spec.fn = benchIteratorCreation
	case "newiteratorwhilewriting":
		spec.threads++
		spec.fn = benchIteratorCreationWhileWriting
	case "seekrandom":
		spec.fn = benchSeekRandom
	case "seekrandomwhilewriting":
		spec.threads++
		spec.fn = benchSeekRandomWhileWriting
	case "readrandomsmall":
		r.reads /= 1000
		spec.fn = benchReadRandom
	case "deleteseq":
		spec.fn = benchDeleteSeq
	case "deleterandom":
		spec.fn = benchDeleteRandom
	case "readwhilewriting":
		spec.threads++
		spec.fn = benchReadWhileWriting
	case "readrandomwriterandom":
		spec.fn = benchReadRandomWriteRandom
	case "updaterandom":
		spec.fn = benchUpdateRandom
	case "compact":
		spec.fn = benchCompact
	case "profiles":
		return spec, true, r.runProfiles()
	case "compactall":
		return spec, true, r.metaCompactAll()
	case "flush":
		return spec, true, r.metaFlush()
	case "waitforcompaction":
		return spec, true, r.metaWaitForCompaction()
	case "stats":
		r.printProperty("rocksdb.stats")
		return spec, true, nil
	case "levelstats":
		r.printProperty("rocksdb.levelstats")
		return spec, true, nil
	case "sstables":
		r.printProperty("rocksdb.sstables")
		return spec, true, nil
	case "memstats":
		r.printMemStats()
		return spec, true, nil
	case "resetstats":
		return spec, true, r.metaResetStats()
	default:
		return spec, false, nil
	}
	return spec, true, nil
}
