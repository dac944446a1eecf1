package checkpoint

import (
	"math/big"
	"strconv"
)

// Tuple is a Python tuple. The Python values a pickle can hold are decoded
// into these Go types:
//
//	None → nil, bool → bool, int → int64 (or *big.Int beyond 64 bits),
//	float → float64, str → string, bytes/bytearray → []byte,
//	tuple → Tuple, list → *List, dict and collections.OrderedDict → *Dict,
//	set/frozenset → *Set, any other class or function → Global, and an
//	instance of a class the reader does not know → *Object (inert).
type Tuple []any

// List is a Python list. It is a pointer type because pickles share and
// append to lists after creating them.
type List struct {
	Items []any
}

// Set is a Python set or frozenset, items in pickle order.
type Set struct {
	Items []any
}

// Item is one key-value pair of a Dict.
type Item struct {
	Key, Value any
}

// Dict is a Python dict or collections.OrderedDict with its items in
// insertion order. Assigning an existing str, int, float, bool or None key
// replaces its value, as in Python.
type Dict struct {
	// Class is "builtins.dict" or "collections.OrderedDict".
	Class string
	// Items in insertion order.
	Items []Item
	// State is what the pickle's BUILD set on the instance, e.g. the
	// _metadata attribute torch.save stores on a state_dict; nil if none.
	State any

	index map[string]int
}

// Get returns the value stored under the string key, as Python's d[key].
func (d *Dict) Get(key string) (any, bool) {
	if d == nil {
		return nil, false
	}
	if d.index != nil {
		if i, ok := d.index["s"+key]; ok {
			return d.Items[i].Value, true
		}
		return nil, false
	}
	for _, it := range d.Items {
		if s, ok := it.Key.(string); ok && s == key {
			return it.Value, true
		}
	}
	return nil, false
}

// set assigns d[key] = value with Python's replace-on-equal-key semantics for
// the hashable scalar key types.
func (d *Dict) set(key, value any) {
	k, ok := hashKey(key)
	if !ok {
		d.Items = append(d.Items, Item{key, value})
		return
	}
	if d.index == nil {
		d.index = make(map[string]int)
	}
	if i, dup := d.index[k]; dup {
		d.Items[i].Value = value
		return
	}
	d.index[k] = len(d.Items)
	d.Items = append(d.Items, Item{key, value})
}

// hashKey maps a scalar key to a string unique per Python value class.
func hashKey(key any) (string, bool) {
	switch k := key.(type) {
	case string:
		return "s" + k, true
	case int64:
		return "i" + strconv.FormatInt(k, 10), true
	case bool:
		if k {
			return "i1", true // True == 1 in a Python dict
		}
		return "i0", true
	case *big.Int:
		return "i" + k.String(), true
	case float64:
		return "f" + strconv.FormatFloat(k, 'g', -1, 64), true
	case nil:
		return "n", true
	}
	return "", false
}

// Global is a reference to a Python class or function (a pickle GLOBAL or
// STACK_GLOBAL) that the reader did not resolve. Nothing is imported or
// called: it is only a name.
type Global struct {
	Module, Name string
}

// String returns "module.name".
func (g Global) String() string { return g.Module + "." + g.Name }

// Object is an instance of a class the reader keeps inert, such as the
// argparse.Namespace training scripts store under "opt": the class name, the arguments
// the pickle would have passed to it, and the state BUILD would have set.
// Nothing of the class is executed.
type Object struct {
	Class Global
	// Args are the constructor arguments (REDUCE, NEWOBJ, INST, OBJ).
	Args Tuple
	// State is what BUILD set, usually a *Dict of attributes; nil if none.
	State any
	// ListItems and DictItems hold APPEND(S) and SETITEM(S) applied to the
	// object (subclasses of list or dict).
	ListItems []any
	DictItems []Item
}

// Attr returns the attribute name from the object's state dict, e.g.
// Attr("batch_size") of an argparse.Namespace.
func (o *Object) Attr(name string) (any, bool) {
	d, ok := o.State.(*Dict)
	if !ok {
		return nil, false
	}
	return d.Get(name)
}
