//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include "filecounters.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

var _ engine.FileOperationCounter = Opener{}

// fileReportBytes holds the counters' report: fourteen lines of at most 40
// bytes.
const fileReportBytes = 1024

// FileOperations implements engine.FileOperationCounter with the counting
// file system of filecounters.cc.
func (Opener) FileOperations() string {
	buf := (*C.char)(C.malloc(fileReportBytes))
	defer C.free(unsafe.Pointer(buf))
	C.gdb_file_counters_report(buf, fileReportBytes)
	return C.GoString(buf)
}
