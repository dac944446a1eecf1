package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// This file is a pickle reader written for untrusted files: a small stack
// machine for the opcodes of protocols 0–5 that never imports or calls
// anything. A GLOBAL is looked up in an allow-list (the resolve hook);
// anything else stays a Global name, and "calling" it (REDUCE, NEWOBJ, INST,
// OBJ) yields an inert *Object that records the arguments. Memory is bounded
// by the input: every opcode consumes at least one byte and creates O(1)
// values, lengths are checked against the bytes that remain before anything
// is allocated, and the memo is a map, so a hostile index costs nothing.
//
// A hand-written machine was preferred to github.com/nlpodyssey/gopickle:
// gopickle resolves classes to Go types that emulate Python ones, panics on
// some malformed inputs, and allocates from lengths in the stream; here the
// allow-list, the inert objects and the limits are all in one short file.

// callable is an allow-listed Python function or class: the only things a
// pickle may "call". They build plain values and never touch the filesystem.
type callable struct {
	name string
	call func(args Tuple) (any, error)
}

// unpickler is the state of one pickle decode.
type unpickler struct {
	data  []byte
	pos   int
	stack []any
	marks []int
	memo  map[uint64]any
	// resolve returns a callable for an allow-listed global, else a Global.
	resolve func(module, name string) any
	// persistentLoad turns a persistent id (torch's storage references) into
	// a value; nil means persistent ids are an error.
	persistentLoad func(pid any) (any, error)
}

// errTruncated reports a pickle that ends inside an opcode's argument.
var errTruncated = errors.New("pickle truncated")

// decodePickle runs the machine on data from its start to the STOP opcode and
// returns the value and the number of bytes consumed (pickles can be
// concatenated, as in torch's legacy format).
func decodePickle(data []byte, resolve func(module, name string) any, persistentLoad func(pid any) (any, error)) (any, int, error) {
	if resolve == nil {
		resolve = resolveBuiltin
	}
	u := &unpickler{data: data, memo: make(map[uint64]any), resolve: resolve, persistentLoad: persistentLoad}
	v, err := u.run()
	if err != nil {
		return nil, u.pos, err
	}
	return v, u.pos, nil
}

// DecodePickle decodes one Python pickle (protocols 0–5) into the Go values
// described at Tuple, without executing anything: classes and functions
// outside a small allow-list (collections.OrderedDict, set, frozenset,
// _codecs.encode, copyreg._reconstructor) become Global names and their
// instances inert *Object values. Persistent ids are an error; use Open for
// PyTorch checkpoints. data longer than opts.MaxPickleBytes is refused.
// It is meant for auxiliary files such as an idf_dict.pkl.
func DecodePickle(data []byte, opts Options) (any, error) {
	opts = opts.withDefaults()
	if int64(len(data)) > opts.MaxPickleBytes {
		return nil, fmt.Errorf("pickle of %d bytes exceeds the limit of %d bytes", len(data), opts.MaxPickleBytes)
	}
	v, n, err := decodePickle(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding pickle: %w", err)
	}
	if n != len(data) {
		return nil, fmt.Errorf("decoding pickle: %d trailing bytes after STOP", len(data)-n)
	}
	return v, nil
}

func (u *unpickler) errorf(op byte, format string, args ...any) error {
	return fmt.Errorf("at byte %d (opcode 0x%02x): %s", u.pos, op, fmt.Sprintf(format, args...))
}

func (u *unpickler) need(n int) ([]byte, error) {
	if n < 0 || n > len(u.data)-u.pos {
		return nil, errTruncated
	}
	b := u.data[u.pos : u.pos+n]
	u.pos += n
	return b, nil
}

func (u *unpickler) needLen(n uint64) ([]byte, error) {
	if n > uint64(len(u.data)-u.pos) {
		return nil, errTruncated
	}
	return u.need(int(n))
}

func (u *unpickler) line() (string, error) {
	i := bytes.IndexByte(u.data[u.pos:], '\n')
	if i < 0 {
		return "", errTruncated
	}
	s := string(u.data[u.pos : u.pos+i])
	u.pos += i + 1
	return s, nil
}

func (u *unpickler) push(v any) { u.stack = append(u.stack, v) }

func (u *unpickler) pop() (any, error) {
	floor := 0
	if len(u.marks) > 0 {
		floor = u.marks[len(u.marks)-1]
	}
	if len(u.stack) <= floor {
		return nil, errors.New("stack underflow")
	}
	v := u.stack[len(u.stack)-1]
	u.stack = u.stack[:len(u.stack)-1]
	return v, nil
}

func (u *unpickler) top() (any, error) {
	floor := 0
	if len(u.marks) > 0 {
		floor = u.marks[len(u.marks)-1]
	}
	if len(u.stack) <= floor {
		return nil, errors.New("stack underflow")
	}
	return u.stack[len(u.stack)-1], nil
}

// popMark removes and returns the items pushed since the last MARK.
func (u *unpickler) popMark() ([]any, error) {
	if len(u.marks) == 0 {
		return nil, errors.New("no MARK on the stack")
	}
	m := u.marks[len(u.marks)-1]
	u.marks = u.marks[:len(u.marks)-1]
	items := append([]any(nil), u.stack[m:]...)
	u.stack = u.stack[:m]
	return items, nil
}

func (u *unpickler) run() (any, error) {
	for {
		if u.pos >= len(u.data) {
			return nil, errTruncated
		}
		op := u.data[u.pos]
		u.pos++
		if op == opStop {
			v, err := u.pop()
			if err != nil {
				return nil, u.errorf(op, "STOP: %v", err)
			}
			return v, nil
		}
		if err := u.step(op); err != nil {
			if errors.Is(err, errTruncated) {
				return nil, fmt.Errorf("at byte %d (opcode 0x%02x): %w", u.pos, op, err)
			}
			return nil, u.errorf(op, "%v", err)
		}
	}
}

// Opcodes, named as in CPython's pickletools.
const (
	opMark           = '('
	opStop           = '.'
	opPop            = '0'
	opPopMark        = '1'
	opDup            = '2'
	opFloat          = 'F'
	opInt            = 'I'
	opBinInt         = 'J'
	opBinInt1        = 'K'
	opLong           = 'L'
	opBinInt2        = 'M'
	opNone           = 'N'
	opPersID         = 'P'
	opBinPersID      = 'Q'
	opReduce         = 'R'
	opString         = 'S'
	opBinString      = 'T'
	opShortBinString = 'U'
	opUnicode        = 'V'
	opBinUnicode     = 'X'
	opAppend         = 'a'
	opBuild          = 'b'
	opGlobal         = 'c'
	opDict           = 'd'
	opEmptyDict      = '}'
	opAppends        = 'e'
	opGet            = 'g'
	opBinGet         = 'h'
	opInst           = 'i'
	opLongBinGet     = 'j'
	opList           = 'l'
	opEmptyList      = ']'
	opObj            = 'o'
	opPut            = 'p'
	opBinPut         = 'q'
	opLongBinPut     = 'r'
	opSetItem        = 's'
	opTuple          = 't'
	opEmptyTuple     = ')'
	opSetItems       = 'u'
	opBinFloat       = 'G'
	opProto          = 0x80
	opNewObj         = 0x81
	opExt1           = 0x82
	opExt2           = 0x83
	opExt4           = 0x84
	opTuple1         = 0x85
	opTuple2         = 0x86
	opTuple3         = 0x87
	opNewTrue        = 0x88
	opNewFalse       = 0x89
	opLong1          = 0x8a
	opLong4          = 0x8b
	opBinBytes       = 'B'
	opShortBinBytes  = 'C'
	opShortBinUni    = 0x8c
	opBinUnicode8    = 0x8d
	opBinBytes8      = 0x8e
	opEmptySet       = 0x8f
	opAddItems       = 0x90
	opFrozenSet      = 0x91
	opNewObjEx       = 0x92
	opStackGlobal    = 0x93
	opMemoize        = 0x94
	opFrame          = 0x95
	opByteArray8     = 0x96
	opNextBuffer     = 0x97
	opReadonlyBuffer = 0x98
)

// step executes one opcode other than STOP: an opcode that decodes one
// value from the stream pushes it (literal), the others rearrange the stack
// (structural).
func (u *unpickler) step(op byte) error {
	v, ok, err := u.literal(op)
	if err != nil {
		return err
	}
	if ok {
		u.push(v)
		return nil
	}
	return u.structural(op)
}

// literal decodes the value of an opcode that pushes one value read from
// the stream (numbers, strings, bytes, constants, empty containers);
// ok is false for every other opcode.
func (u *unpickler) literal(op byte) (v any, ok bool, err error) {
	switch op {
	case opNone:
		return nil, true, nil
	case opNewTrue, opNewFalse:
		return op == opNewTrue, true, nil
	case opEmptyTuple:
		return Tuple{}, true, nil
	case opEmptyList:
		return &List{}, true, nil
	case opEmptyDict:
		return &Dict{Class: "builtins.dict"}, true, nil
	case opEmptySet:
		return &Set{}, true, nil
	case opBinInt, opBinInt1, opBinInt2:
		v, err = u.fixedInt(op)
	case opLong1, opLong4:
		var d []byte
		width := 1
		if op == opLong4 {
			width = 4
		}
		if d, err = u.counted(op, width); err == nil {
			v = decodeLong(d)
		}
	case opInt, opLong:
		v, err = u.textLine(func(s string) (any, error) { return parseTextInt(s, op == opLong) })
	case opFloat:
		v, err = u.textLine(func(s string) (any, error) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("FLOAT %q: %v", s, err)
			}
			return f, nil
		})
	case opBinFloat:
		var b []byte
		if b, err = u.need(8); err == nil {
			v = math.Float64frombits(binary.BigEndian.Uint64(b))
		}
	case opString:
		v, err = u.textLine(func(s string) (any, error) { return unquotePythonString(s) })
	case opUnicode:
		v, err = u.textLine(func(s string) (any, error) { return decodeRawUnicodeEscape(s), nil })
	case opShortBinUni, opShortBinString, opShortBinBytes, opBinUnicode, opBinString, opBinBytes,
		opBinUnicode8, opBinBytes8, opByteArray8:
		v, err = u.stringOrBytes(op)
	default:
		return nil, false, nil
	}
	return v, err == nil, err
}

// fixedInt reads BININT (int32), BININT1 (uint8) or BININT2 (uint16).
func (u *unpickler) fixedInt(op byte) (any, error) {
	switch op {
	case opBinInt:
		b, err := u.need(4)
		if err != nil {
			return nil, err
		}
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	case opBinInt2:
		b, err := u.need(2)
		if err != nil {
			return nil, err
		}
		return int64(binary.LittleEndian.Uint16(b)), nil
	}
	b, err := u.need(1)
	if err != nil {
		return nil, err
	}
	return int64(b[0]), nil
}

// counted reads a little-endian length of width bytes (1, 4 or 8) and then
// that many bytes; a 4-byte length is signed for LONG4 and BINSTRING.
func (u *unpickler) counted(op byte, width int) ([]byte, error) {
	b, err := u.need(width)
	if err != nil {
		return nil, err
	}
	var n uint64
	switch width {
	case 1:
		n = uint64(b[0])
	case 4:
		n32 := binary.LittleEndian.Uint32(b)
		if (op == opLong4 || op == opBinString) && int32(n32) < 0 {
			return nil, fmt.Errorf("opcode with negative length %d", int32(n32))
		}
		n = uint64(n32)
	default:
		n = binary.LittleEndian.Uint64(b)
	}
	return u.needLen(n)
}

// stringOrBytes reads the length-prefixed str and bytes opcodes: str for
// the UNICODE and (Python 2) STRING families, a copy of the bytes
// otherwise.
func (u *unpickler) stringOrBytes(op byte) (any, error) {
	width := 4
	switch op {
	case opShortBinUni, opShortBinString, opShortBinBytes:
		width = 1
	case opBinUnicode8, opBinBytes8, opByteArray8:
		width = 8
	}
	d, err := u.counted(op, width)
	if err != nil {
		return nil, err
	}
	switch op {
	case opBinUnicode, opBinString, opShortBinUni, opShortBinString, opBinUnicode8:
		return string(d), nil
	}
	return append([]byte(nil), d...), nil
}

// textLine reads a newline-terminated argument and parses it.
func (u *unpickler) textLine(parse func(string) (any, error)) (any, error) {
	s, err := u.line()
	if err != nil {
		return nil, err
	}
	return parse(s)
}

// popN pops the top n values, returned bottom first.
func (u *unpickler) popN(n int) ([]any, error) {
	floor := 0
	if len(u.marks) > 0 {
		floor = u.marks[len(u.marks)-1]
	}
	if len(u.stack)-floor < n {
		return nil, errors.New("stack underflow")
	}
	vs := append([]any(nil), u.stack[len(u.stack)-n:]...)
	u.stack = u.stack[:len(u.stack)-n]
	return vs, nil
}

// globalName reads the two text lines of GLOBAL and INST: module and name.
func (u *unpickler) globalName() (Global, error) {
	module, err := u.line()
	if err != nil {
		return Global{}, err
	}
	name, err := u.line()
	return Global{Module: module, Name: name}, err
}

// callWith pops a callable and its argument tuple (and, for NEWOBJ_EX,
// keyword arguments, which are not recorded), calls it and pushes the
// result.
func (u *unpickler) callWith(what string, n int) error {
	vs, err := u.popN(n)
	if err != nil {
		return err
	}
	args, ok := vs[1].(Tuple)
	if !ok {
		return fmt.Errorf("%s with %s arguments", what, typeName(vs[1]))
	}
	return u.pushCall(vs[0], args)
}

// pushCall calls f with args and pushes the result.
func (u *unpickler) pushCall(f any, args Tuple) error {
	v, err := u.call(f, args)
	if err != nil {
		return err
	}
	u.push(v)
	return nil
}

// structural executes the opcodes that rearrange the stack, memo and marks.
func (u *unpickler) structural(op byte) error {
	switch op {
	case opProto:
		b, err := u.need(1)
		if err != nil {
			return err
		}
		if b[0] > 5 {
			return fmt.Errorf("unsupported pickle protocol %d", b[0])
		}
	case opFrame:
		// A framing hint only; the frame must fit in what remains.
		b, err := u.need(8)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint64(b) > uint64(len(u.data)-u.pos) {
			return errTruncated
		}
	case opMark:
		u.marks = append(u.marks, len(u.stack))
	case opPop:
		if len(u.marks) > 0 && u.marks[len(u.marks)-1] == len(u.stack) {
			u.marks = u.marks[:len(u.marks)-1] // POP of a bare MARK, as CPython
			return nil
		}
		_, err := u.pop()
		return err
	case opDup:
		v, err := u.top()
		if err != nil {
			return err
		}
		u.push(v)
	case opTuple1, opTuple2, opTuple3:
		vs, err := u.popN(int(op-opTuple1) + 1)
		if err != nil {
			return err
		}
		u.push(Tuple(vs))
	case opAppend:
		vs, err := u.popN(1)
		if err != nil {
			return err
		}
		return u.appendTo(vs)
	case opSetItem:
		kv, err := u.popN(2)
		if err != nil {
			return err
		}
		return u.setItems(kv)
	case opPut, opBinPut, opLongBinPut:
		i, err := u.memoIndex(op, "PUT")
		if err != nil {
			return err
		}
		return u.put(i)
	case opMemoize:
		return u.put(uint64(len(u.memo)))
	case opGet, opBinGet, opLongBinGet:
		i, err := u.memoIndex(op, "GET")
		if err != nil {
			return err
		}
		return u.get(i)
	case opGlobal:
		g, err := u.globalName()
		if err != nil {
			return err
		}
		u.push(u.resolve(g.Module, g.Name))
	case opStackGlobal:
		vs, err := u.popN(2)
		if err != nil {
			return err
		}
		module, ok1 := vs[0].(string)
		name, ok2 := vs[1].(string)
		if !ok1 || !ok2 {
			return errors.New("STACK_GLOBAL with non-string module or name")
		}
		u.push(u.resolve(module, name))
	case opReduce:
		return u.callWith("REDUCE", 2)
	case opNewObj:
		return u.callWith("NEWOBJ", 2)
	case opNewObjEx:
		return u.callWith("NEWOBJ_EX", 3)
	case opInst:
		g, err := u.globalName()
		if err != nil {
			return err
		}
		items, err := u.popMark()
		if err != nil {
			return err
		}
		return u.pushCall(u.resolve(g.Module, g.Name), Tuple(items))
	case opBuild:
		vs, err := u.popN(1)
		if err != nil {
			return err
		}
		t, err := u.top()
		if err != nil {
			return err
		}
		return build(t, vs[0])
	case opPersID:
		s, err := u.line()
		if err != nil {
			return err
		}
		return u.persistent(s)
	case opBinPersID:
		pid, err := u.pop()
		if err != nil {
			return err
		}
		return u.persistent(pid)
	case opReadonlyBuffer:
		// A no-op on the value for a reader that never mutates buffers.
		_, err := u.top()
		return err
	case opExt1, opExt2, opExt4:
		return errors.New("extension registry opcodes (EXT1/2/4) are not supported")
	case opNextBuffer:
		return errors.New("out-of-band buffers (NEXT_BUFFER) are not supported")
	default:
		return u.markOp(op)
	}
	return nil
}

// markOp executes the opcodes that take the items since the last MARK.
func (u *unpickler) markOp(op byte) error {
	switch op {
	case opPopMark, opTuple, opList, opFrozenSet, opDict, opAppends, opAddItems, opSetItems, opObj:
	default:
		return fmt.Errorf("unknown opcode")
	}
	items, err := u.popMark()
	if err != nil {
		return err
	}
	switch op {
	case opTuple:
		u.push(Tuple(items))
	case opList:
		u.push(&List{Items: items})
	case opFrozenSet:
		u.push(&Set{Items: items})
	case opDict:
		if len(items)%2 != 0 {
			return errors.New("DICT with an odd number of items")
		}
		d := &Dict{Class: "builtins.dict"}
		for i := 0; i < len(items); i += 2 {
			d.set(items[i], items[i+1])
		}
		u.push(d)
	case opAppends:
		return u.appendTo(items)
	case opSetItems:
		if len(items)%2 != 0 {
			return errors.New("SETITEMS with an odd number of items")
		}
		return u.setItems(items)
	case opAddItems:
		t, err := u.top()
		if err != nil {
			return err
		}
		s, ok := t.(*Set)
		if !ok {
			return fmt.Errorf("ADDITEMS on %s", typeName(t))
		}
		s.Items = append(s.Items, items...)
	case opObj:
		if len(items) == 0 {
			return errors.New("OBJ without a class")
		}
		return u.pushCall(items[0], Tuple(items[1:]))
	}
	return nil
}

// memoIndex reads the memo index argument of a PUT or GET opcode: a
// decimal line for the text protocol's PUT/GET, one byte for BINPUT/BINGET,
// four little-endian bytes for LONG_BINPUT/LONG_BINGET.
func (u *unpickler) memoIndex(op byte, name string) (uint64, error) {
	switch op {
	case opPut, opGet:
		s, err := u.line()
		if err != nil {
			return 0, err
		}
		i, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s index %q: %v", name, s, err)
		}
		return i, nil
	case opBinPut, opBinGet:
		b, err := u.need(1)
		if err != nil {
			return 0, err
		}
		return uint64(b[0]), nil
	default:
		b, err := u.need(4)
		if err != nil {
			return 0, err
		}
		return uint64(binary.LittleEndian.Uint32(b)), nil
	}
}

func (u *unpickler) put(i uint64) error {
	v, err := u.top()
	if err != nil {
		return err
	}
	u.memo[i] = v
	return nil
}

func (u *unpickler) get(i uint64) error {
	v, ok := u.memo[i]
	if !ok {
		return fmt.Errorf("memo key %d not defined", i)
	}
	u.push(v)
	return nil
}

func (u *unpickler) persistent(pid any) error {
	if u.persistentLoad == nil {
		return errors.New("persistent id in a pickle that may not have any")
	}
	v, err := u.persistentLoad(pid)
	if err != nil {
		return err
	}
	u.push(v)
	return nil
}

func (u *unpickler) appendTo(items []any) error {
	t, err := u.top()
	if err != nil {
		return err
	}
	switch l := t.(type) {
	case *List:
		l.Items = append(l.Items, items...)
	case *Object:
		l.ListItems = append(l.ListItems, items...)
	default:
		return fmt.Errorf("APPEND to %s", typeName(t))
	}
	return nil
}

func (u *unpickler) setItems(kv []any) error {
	t, err := u.top()
	if err != nil {
		return err
	}
	switch d := t.(type) {
	case *Dict:
		for i := 0; i < len(kv); i += 2 {
			d.set(kv[i], kv[i+1])
		}
	case *Object:
		for i := 0; i < len(kv); i += 2 {
			d.DictItems = append(d.DictItems, Item{kv[i], kv[i+1]})
		}
	default:
		return fmt.Errorf("SETITEM on %s", typeName(t))
	}
	return nil
}

// call applies an allow-listed callable, or records an inert instance of
// anything else.
func (u *unpickler) call(f any, args Tuple) (any, error) {
	switch c := f.(type) {
	case callable:
		v, err := c.call(args)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		return v, nil
	case Global:
		return &Object{Class: c, Args: args}, nil
	}
	return nil, fmt.Errorf("calling %s, which is not a class or function", typeName(f))
}

// build applies BUILD's state to an object, as object.__setstate__ would,
// without calling any user code.
func build(obj, state any) error {
	switch o := obj.(type) {
	case *Object:
		if prev, ok := o.State.(*Dict); ok {
			if add, ok := state.(*Dict); ok {
				for _, it := range add.Items {
					prev.set(it.Key, it.Value)
				}
				return nil
			}
		}
		o.State = state
	case *Dict:
		o.State = state
	case *tensorRef:
		// torch sets tensor attributes (e.g. _backward_hooks) this way;
		// the data is already described, so the state is ignored.
	default:
		return fmt.Errorf("BUILD on %s", typeName(obj))
	}
	return nil
}

// decodeLong decodes a little-endian two's-complement integer (LONG1, LONG4).
func decodeLong(b []byte) any {
	if len(b) == 0 {
		return int64(0)
	}
	if len(b) <= 8 {
		var v uint64
		for i := len(b) - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		shift := uint(64 - 8*len(b))
		return int64(v<<shift) >> shift
	}
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	x := new(big.Int).SetBytes(be)
	if b[len(b)-1]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if x.IsInt64() {
		return x.Int64()
	}
	return x
}

// parseTextInt parses the argument of protocol 0's INT and LONG; INT 00 and
// 01 are False and True.
func parseTextInt(s string, long bool) (any, error) {
	if !long {
		switch s {
		case "00":
			return false, nil
		case "01":
			return true, nil
		}
	}
	if long && len(s) > 0 && s[len(s)-1] == 'L' {
		s = s[:len(s)-1]
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("integer %q", s)
	}
	return x, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case Tuple:
		return "tuple"
	case *List:
		return "list"
	case *Dict:
		return "dict"
	case *Set:
		return "set"
	case Global:
		return "global " + v.(Global).String()
	case *Object:
		return "instance of " + v.(*Object).Class.String()
	case *tensorRef:
		return "tensor"
	case *storageRef:
		return "storage"
	case callable:
		return v.(callable).name
	}
	return fmt.Sprintf("%T", v)
}
