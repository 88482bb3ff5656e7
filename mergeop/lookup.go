package mergeop

import (
	"errors"
	"fmt"
	"strings"
)

// Lookup returns the operator that spec names, as RocksDB 7.8.3's
// MergeOperator::CreateFromString reads db_bench's --merge_operator: a name
// ("uint64add", "UInt64AddOperator"), or an option string
// ("id=stringappend;delimiter=:" or "{id=StringAppendOperator;delimiter=,;}")
// whose only option besides id is the string-append operators' delimiter.
// An empty spec is no operator: (nil, nil).
//
// The error is RocksDB's status text; db_bench prints it through
// InvalidFlagMessage and exits 1 before it opens the database.
func Lookup(spec string) (Operator, error) {
	if spec == "" {
		return nil, nil
	}
	if !strings.Contains(spec, "=") {
		if op := byName(spec, defaultDelimiter); op != nil {
			return op, nil
		}
		return nil, notLoadable(spec)
	}
	opts, err := parseOptionString(spec)
	if err != nil {
		return nil, err
	}
	id, hasID := opts["id"]
	if !hasID {
		return nil, notLoadable(spec)
	}
	delete(opts, "id")
	delimiter, hasDelimiter := opts["delimiter"]
	if hasDelimiter {
		delete(opts, "delimiter")
	} else {
		delimiter = defaultDelimiter
	}
	op := byName(id, delimiter)
	if op == nil {
		return nil, notLoadable(id)
	}
	if _, appends := op.(delimited); hasDelimiter && !appends {
		return nil, optionNotFound("delimiter")
	}
	for key := range opts {
		return nil, optionNotFound(key)
	}
	return op, nil
}

// InvalidFlagMessage is the line db_bench 7.8.3 prints on stderr before it
// exits 1 when --merge_operator names no operator (db_bench_tool.cc,
// Benchmark::InitializeOptionsFromFlags).
func InvalidFlagMessage(spec string, err error) string {
	return fmt.Sprintf("invalid merge operator[%s]: %v", spec, err)
}

// defaultDelimiter is the string-append operators' delimiter when the
// option string names none (MergeOperators::CreateStringAppendOperator).
const defaultDelimiter = ","

// byName maps RocksDB's short names and class names to operators
// (utilities/merge_operators.cc, MergeOperators::CreateFromStringId, and the
// builtin library registrations that the same file makes), or nil.
func byName(name, delimiter string) Operator {
	switch name {
	case "put", "put_v1", "PutOperator":
		return putOperator{}
	case "uint64add", "UInt64AddOperator":
		return uint64AddOperator{}
	case "max", "MaxOperator":
		return maxOperator{}
	case "bytesxor", "BytesXOR":
		return bytesXOROperator{}
	case "stringappend", "StringAppendOperator":
		return stringAppendOperator{delimiter: delimiter}
	case "stringappendtest", "StringAppendTESTOperator":
		return stringAppendTESTOperator{delimiter: delimiter}
	case "sortlist", "MergeSortOperator":
		return sortListOperator{}
	}
	return nil
}

func notLoadable(name string) error {
	return errors.New("Not implemented: Could not load MergeOperator: " + name)
}

func optionNotFound(key string) error {
	return errors.New("NotFound: Could not find option: : " + key)
}

// parseOptionString splits "k1=v1;k2=v2[;]", optionally wrapped in braces,
// into its pairs. A backslash takes the next character literally (RocksDB
// escapes ':' and '\' so in the OPTIONS file).
func parseOptionString(spec string) (map[string]string, error) {
	body := strings.TrimSpace(spec)
	if strings.HasPrefix(body, "{") && strings.HasSuffix(body, "}") {
		body = body[1 : len(body)-1]
	}
	opts := make(map[string]string)
	for len(body) > 0 {
		eq := strings.IndexByte(body, '=')
		if eq < 0 {
			return nil, errors.New("Invalid argument: Mismatched key value pair, '=' expected")
		}
		key := strings.TrimSpace(body[:eq])
		var value strings.Builder
		i := eq + 1
		for ; i < len(body) && body[i] != ';'; i++ {
			if body[i] == '\\' && i+1 < len(body) {
				i++
			}
			value.WriteByte(body[i])
		}
		opts[key] = value.String()
		if i < len(body) {
			i++
		}
		body = body[i:]
	}
	return opts, nil
}

// OptionsValue is the value of the OPTIONS file's merge_operator= line for
// op, as RocksDB 7.8.3 writes it: the class name, or for the string-append
// operators "{id=NAME;delimiter=D;}" with ':' and '\' escaped. A nil op is
// "nullptr".
func OptionsValue(op Operator) string {
	if op == nil {
		return "nullptr"
	}
	d, ok := op.(delimited)
	if !ok {
		return op.Name()
	}
	var escaped strings.Builder
	for i := 0; i < len(d.delimiterString()); i++ {
		c := d.delimiterString()[i]
		if c == ':' || c == '\\' {
			escaped.WriteByte('\\')
		}
		escaped.WriteByte(c)
	}
	return "{id=" + op.Name() + ";delimiter=" + escaped.String() + ";}"
}

// delimited is an operator with a delimiter option.
type delimited interface{ delimiterString() string }
