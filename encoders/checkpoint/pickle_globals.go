package checkpoint

import (
	"errors"
	"fmt"
)

// The allow-list: the only Python globals a pickle may call. Each builds a
// plain value from its arguments; everything else stays an inert Global.

// resolveBuiltin resolves the globals of plain-data pickles.
func resolveBuiltin(module, name string) any {
	switch module + "." + name {
	case "collections.OrderedDict":
		return callable{name: "collections.OrderedDict", call: newOrderedDict}
	case "builtins.set", "__builtin__.set", "builtins.frozenset", "__builtin__.frozenset":
		return callable{name: module + "." + name, call: newSet}
	case "builtins.bytearray", "__builtin__.bytearray", "builtins.bytes", "__builtin__.bytes":
		return callable{name: module + "." + name, call: newBytes}
	case "_codecs.encode":
		return callable{name: "_codecs.encode", call: codecsEncode}
	case "copyreg._reconstructor", "copy_reg._reconstructor":
		return callable{name: module + "." + name, call: reconstructor}
	}
	return Global{Module: module, Name: name}
}

// newOrderedDict is OrderedDict() or OrderedDict(iterable of pairs), the
// forms protocols 0–2 emit.
func newOrderedDict(args Tuple) (any, error) {
	d := &Dict{Class: "collections.OrderedDict"}
	if len(args) == 0 {
		return d, nil
	}
	if len(args) > 1 {
		return nil, fmt.Errorf("%d arguments", len(args))
	}
	var pairs []any
	switch it := args[0].(type) {
	case *List:
		pairs = it.Items
	case Tuple:
		pairs = it
	default:
		return nil, fmt.Errorf("argument of type %s", typeName(args[0]))
	}
	for _, p := range pairs {
		var kv []any
		switch p := p.(type) {
		case Tuple:
			kv = p
		case *List:
			kv = p.Items
		}
		if len(kv) != 2 {
			return nil, errors.New("item is not a key-value pair")
		}
		d.set(kv[0], kv[1])
	}
	return d, nil
}

func newSet(args Tuple) (any, error) {
	s := &Set{}
	if len(args) == 0 {
		return s, nil
	}
	switch it := args[0].(type) {
	case *List:
		s.Items = append(s.Items, it.Items...)
	case Tuple:
		s.Items = append(s.Items, it...)
	default:
		return nil, fmt.Errorf("argument of type %s", typeName(args[0]))
	}
	return s, nil
}

// codecsEncode is how protocol 2 pickles bytes: _codecs.encode(str, "latin1").
func codecsEncode(args Tuple) (any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("%d arguments", len(args))
	}
	s, ok1 := args[0].(string)
	enc, ok2 := args[1].(string)
	if !ok1 || !ok2 {
		return nil, errors.New("arguments are not strings")
	}
	if enc != "latin1" && enc != "latin-1" && enc != "iso-8859-1" {
		return nil, fmt.Errorf("encoding %q", enc)
	}
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, fmt.Errorf("code point U+%04X is not latin1", r)
		}
		out = append(out, byte(r))
	}
	return out, nil
}

// reconstructor is copyreg._reconstructor(cls, base, state), the protocol
// 0/1 way of creating an instance: recorded as an inert instance of cls.
func reconstructor(args Tuple) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("no class")
	}
	g, ok := args[0].(Global)
	if !ok {
		return nil, fmt.Errorf("class of type %s", typeName(args[0]))
	}
	return &Object{Class: g, Args: args[1:]}, nil
}

// newBytes is bytes() or bytearray() of nothing, of bytes, or of a str and
// the latin1 encoding (how protocols 0–2 write them).
func newBytes(args Tuple) (any, error) {
	switch len(args) {
	case 0:
		return []byte{}, nil
	case 1:
		if b, ok := args[0].([]byte); ok {
			return append([]byte{}, b...), nil
		}
		return nil, fmt.Errorf("argument of type %s", typeName(args[0]))
	}
	return codecsEncode(args)
}
