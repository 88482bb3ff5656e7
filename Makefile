# Build and test targets. The default build needs only Go; the RocksDB engine
# needs the rocksdb build tag and Debian's librocksdb-dev 7.8.3
# (apt-get install librocksdb-dev; the C++ oracle db_bench is in rocksdb-tools).

GO ?= go
# staticcheck at a pinned version, run through the module proxy so that its
# dependencies stay out of go.mod; its settings are in staticcheck.conf.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
ROCKSDB_HEADER ?= /usr/include/rocksdb/c.h
# The command binaries, built at the repository root (see .gitignore).
CMDS := $(notdir $(wildcard cmd/*))

.PHONY: all build build-rocksdb test test-rocksdb check-rocksdb reliability

all: build

# build: plain Go build of every package and the command binaries.
build:
	$(GO) build ./...
	@for c in $(CMDS); do echo "$(GO) build -o $$c ./cmd/$$c"; $(GO) build -o $$c ./cmd/$$c || exit 1; done

# build-rocksdb: the same with the RocksDB engine compiled in.
build-rocksdb: check-rocksdb
	$(GO) build -tags rocksdb ./...
	@for c in $(CMDS); do echo "$(GO) build -tags rocksdb -o $$c ./cmd/$$c"; $(GO) build -tags rocksdb -o $$c ./cmd/$$c || exit 1; done

# test: what CI runs. gofmt, go.mod tidiness, vet and staticcheck, every package's tests (the oracle tests
# compare against /usr/bin/db_bench when Debian's rocksdb-tools is installed),
# the race detector on the concurrent packages, the native engine's packages
# with their self-checks on (-tags invariants; race builds have them on too),
# and, with the rocksdb tag when librocksdb-dev is there, the RocksDB engine,
# the driver's oracle/profiles tests and the merge operators against
# librocksdb's own.
RACE_PKGS := ./memtable/... ./memtablerepbench ./sst/... ./lsm/... ./engine/... ./dbbench ./tools/... ./internal/...
test:
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	$(GO) mod tidy -diff
	$(GO) vet ./...
	$(STATICCHECK) ./...
	$(GO) test -count=1 -timeout 30m ./...
	$(GO) test -count=1 -timeout 30m -race -short $(RACE_PKGS)
	$(GO) test -count=1 -timeout 30m -tags invariants -short ./memtable/... ./sst/... ./lsm/...
	@if [ -f $(ROCKSDB_HEADER) ]; then \
	  echo "$(GO) vet -tags rocksdb ./engine/rocksdb/ ./mergeop/ && $(STATICCHECK) -tags rocksdb ./engine/rocksdb/... ./mergeop/ && $(GO) test -count=1 -timeout 30m -tags rocksdb ./engine/rocksdb/... ./dbbench/ ./mergeop/"; \
	  $(GO) vet -tags rocksdb ./engine/rocksdb/ ./mergeop/ && $(STATICCHECK) -tags rocksdb ./engine/rocksdb/... ./mergeop/ && $(GO) test -count=1 -timeout 30m -tags rocksdb ./engine/rocksdb/... ./dbbench/ ./mergeop/; \
	else echo "$(ROCKSDB_HEADER) not found: skipping the rocksdb-tagged tests"; fi

# test-rocksdb: the RocksDB engine and the OPTIONS-file reader it relies on.
test-rocksdb: check-rocksdb
	$(GO) test -tags rocksdb ./engine/rocksdb/... ./options/...

check-rocksdb:
	@test -f $(ROCKSDB_HEADER) || { echo "$(ROCKSDB_HEADER) not found: install Debian's librocksdb-dev 7.8.3 (apt-get install librocksdb-dev)" >&2; exit 1; }

# reliability: the data-safety suite's long mode (tools/reliability), then the
# tables of docs/RELIABILITY.md on stdout. Needs root for the ENOSPC tmpfs
# (skipped, saying so, otherwise); about 20 minutes on 2 cores.
reliability:
	$(GO) build -o db_bench ./cmd/db_bench
	RELIABILITY_LONG=1 $(GO) test -count=1 -timeout 2h ./tools/reliability/
	$(GO) run ./tools/reliability/cmd/reliability -long -ours ./db_bench
