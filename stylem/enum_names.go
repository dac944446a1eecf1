package stylem

import (
	"fmt"
	"strings"
)

// enumNames holds the names of a small enum's values, in value order, as
// table files and the command write them.
type enumNames[T ~int] struct {
	typ   string   // the Go type's name, for unnamed values
	names []string // names[v] is value v's name
}

func (e enumNames[T]) valid(v T) bool { return v >= 0 && int(v) < len(e.names) }

// name returns v's name, or "Type(v)" for a value outside the enum.
func (e enumNames[T]) name(v T) string {
	if e.valid(v) {
		return e.names[v]
	}
	return fmt.Sprintf("%s(%d)", e.typ, int(v))
}

// parse returns the value called name; what names the enum in the error.
func (e enumNames[T]) parse(name, what string) (T, error) {
	for v, n := range e.names {
		if n == name {
			return T(v), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, name, strings.Join(e.names, " or "))
}
