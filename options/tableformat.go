package options

import "fmt"

// The table format option. RocksDB's OPTIONS file names a column family's
// table factory twice: table_factory=<Name> in its [CFOptions] section and
// a [TableOptions/<Name> "<cf>"] section with the factory's own options.
// The native engine has two table formats, sst's block format (RocksDB's
// BlockBasedTable shape) and rtable's read-optimized format, which an
// OPTIONS file names RTable; godbbench's --table_format names them "block"
// and "rtable".

// Table format names (Options.TableFormat, --table_format).
const (
	TableFormatBlock  = "block"
	TableFormatRTable = "rtable"
)

// rtableFactory is the table factory name of the rtable format in an
// OPTIONS file.
const rtableFactory = "RTable"

// knownRTableOptions are the [TableOptions/RTable "..."] names: none yet
// (rtable's writer takes the bloom bits and compression of the block
// format's options).
var knownRTableOptions = map[string]valueKind{}

// tableFactoryFormats maps the OPTIONS file's table factories that name a
// native table format to that format.
var tableFactoryFormats = map[string]string{
	"BlockBasedTable": TableFormatBlock,
	rtableFactory:     TableFormatRTable,
}

// CheckTableFormat refuses a table format name other than "block" and
// "rtable".
func CheckTableFormat(name string) error {
	if name != TableFormatBlock && name != TableFormatRTable {
		return fmt.Errorf("unknown table format %q: want %q or %q", name, TableFormatBlock, TableFormatRTable)
	}
	return nil
}

// setTableFormat parses --table_format.
func setTableFormat(o *Options, v string) (bool, error) {
	if err := CheckTableFormat(v); err != nil {
		return false, err
	}
	old := o.TableFormat
	o.TableFormat = v
	return old != v, nil
}

// setTableFactory parses table_factory in [CFOptions]: BlockBasedTable and
// RTable name the two native formats; another factory RocksDB has
// (PlainTable, CuckooTable), which no engine here builds, is kept by name
// for the engines to refuse at open.
func setTableFactory(o *Options, v string) (bool, error) {
	if !tableFactories[v] {
		return false, fmt.Errorf("unknown table factory %s", v)
	}
	format, ok := tableFactoryFormats[v]
	if !ok {
		format = v
	}
	old := o.TableFormat
	o.TableFormat = format
	return old != format, nil
}

// CheckBlockTableFormat is for engines that build only block-based tables:
// it refuses any table format but "block" (or unset), naming the engine.
func CheckBlockTableFormat(o *Options, engine string) error {
	if o.TableFormat != "" && o.TableFormat != TableFormatBlock {
		return fmt.Errorf("engine %s: table format %q is not supported: only the native engine writes it (use --table_format=block)", engine, o.TableFormat)
	}
	return nil
}
