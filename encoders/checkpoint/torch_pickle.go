package checkpoint

import (
	"errors"
	"fmt"
	"math"
)

// This file turns the pickle of a torch.save checkpoint into tensor
// descriptions. torch.save pickles each tensor as
//
//	torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)
//
// where storage is a persistent id naming a raw storage stored next to the
// pickle: ('storage', torch.FloatStorage, key, location, numel) in the zip
// format, plus a view (view_key, offset, size) in the legacy format.

// storageType is the value of a torch.<T>Storage global.
type storageType struct{ dtype DType }

// storageRef is one raw storage; tensors sharing it (tied weights, views)
// point to the same storageRef.
type storageRef struct {
	key   string
	dtype DType
	numel int64 // elements the persistent id declares
	// base and baseOffset (elements) describe a legacy view into another
	// storage; base is nil for a root storage.
	base       *storageRef
	baseOffset int64
}

// root returns the root storage and the element offset of s inside it.
func (s *storageRef) root() (*storageRef, int64) {
	if s.base != nil {
		return s.base, s.baseOffset
	}
	return s, 0
}

// tensorRef is a tensor described by the pickle: a strided view of a storage.
type tensorRef struct {
	storage *storageRef
	offset  int64 // elements
	shape   []int
	strides []int // elements
}

// maxDims bounds a tensor's rank; torch itself allows 64.
const maxDims = 64

// torchUnpickler resolves the globals of a torch.save pickle and collects its
// storages.
type torchUnpickler struct {
	storages map[string]*storageRef
	legacy   bool
}

func newTorchUnpickler(legacy bool) *torchUnpickler {
	return &torchUnpickler{storages: make(map[string]*storageRef), legacy: legacy}
}

func (t *torchUnpickler) resolve(module, name string) any {
	switch module {
	case "torch", "torch.cuda": // torch.cuda.*Storage: saved from a GPU (legacy format)
		if dt, ok := torchStorageDTypes[name]; ok {
			return storageType{dt}
		}
	case "torch._utils":
		switch name {
		case "_rebuild_tensor_v2", "_rebuild_tensor":
			return callable{name: module + "." + name, call: rebuildTensor}
		case "_rebuild_parameter", "_rebuild_parameter_with_state":
			return callable{name: module + "." + name, call: rebuildParameter}
		}
	}
	return resolveBuiltin(module, name)
}

// rebuildTensor checks and records _rebuild_tensor(_v2)'s arguments.
func rebuildTensor(args Tuple) (any, error) {
	if len(args) < 4 {
		return nil, fmt.Errorf("%d arguments, want at least 4", len(args))
	}
	st, ok := args[0].(*storageRef)
	if !ok {
		return nil, fmt.Errorf("storage argument of type %s", typeName(args[0]))
	}
	off, ok := args[1].(int64)
	if !ok || off < 0 {
		return nil, fmt.Errorf("storage offset %v", args[1])
	}
	shape, err := intTuple(args[2], "size")
	if err != nil {
		return nil, err
	}
	strides, err := intTuple(args[3], "stride")
	if err != nil {
		return nil, err
	}
	if len(shape) != len(strides) {
		return nil, fmt.Errorf("size has %d dimensions, stride %d", len(shape), len(strides))
	}
	if len(shape) > maxDims {
		return nil, fmt.Errorf("%d dimensions (at most %d)", len(shape), maxDims)
	}
	numel := int64(1)
	for _, d := range shape {
		if d != 0 && numel > math.MaxInt64/16/int64(d) {
			return nil, fmt.Errorf("size %v has too many elements", shape)
		}
		numel *= int64(d)
	}
	extent, err := stridedExtent(off, shape, strides)
	if err != nil {
		return nil, err
	}
	if extent > st.numel {
		return nil, fmt.Errorf("view needs %d elements of storage %q, which has %d", extent, st.key, st.numel)
	}
	return &tensorRef{storage: st, offset: off, shape: shape, strides: strides}, nil
}

// rebuildParameter unwraps an nn.Parameter to its tensor.
func rebuildParameter(args Tuple) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("no arguments")
	}
	if _, ok := args[0].(*tensorRef); !ok {
		return nil, fmt.Errorf("data of type %s", typeName(args[0]))
	}
	return args[0], nil
}

func intTuple(v any, what string) ([]int, error) {
	t, ok := v.(Tuple)
	if !ok {
		return nil, fmt.Errorf("%s of type %s", what, typeName(v))
	}
	if len(t) > maxDims {
		return nil, fmt.Errorf("%s has %d dimensions (at most %d)", what, len(t), maxDims)
	}
	out := make([]int, len(t))
	for i, x := range t {
		n, ok := x.(int64)
		if !ok || n < 0 || n > math.MaxInt32*int64(1<<16) {
			return nil, fmt.Errorf("%s[%d] = %v", what, i, x)
		}
		out[i] = int(n)
	}
	return out, nil
}

// stridedExtent returns how many storage elements a view reaches: one past
// its last element (offset when it has none), with overflow checks.
func stridedExtent(offset int64, shape, strides []int) (int64, error) {
	last := offset
	for i, n := range shape {
		if n == 0 {
			return offset, nil
		}
		step := int64(n-1) * int64(strides[i])
		if strides[i] != 0 && step/int64(strides[i]) != int64(n-1) || step > math.MaxInt64/4-last {
			return 0, errors.New("view extent overflows")
		}
		last += step
	}
	return last + 1, nil
}

// persistentLoad resolves a storage persistent id, sharing one storageRef per
// key so that tied weights read one buffer.
func (t *torchUnpickler) persistentLoad(pid any) (any, error) {
	tup, ok := pid.(Tuple)
	if !ok || len(tup) == 0 {
		return nil, fmt.Errorf("persistent id of type %s", typeName(pid))
	}
	kind, _ := tup[0].(string)
	if kind == "module" && t.legacy {
		// Source code of a pickled nn.Module class: kept as an inert name.
		return Global{Module: "torch.legacy", Name: "module"}, nil
	}
	if kind != "storage" {
		return nil, fmt.Errorf("persistent id kind %q", kind)
	}
	want := 5
	if t.legacy {
		want = 6
	}
	if len(tup) != want {
		return nil, fmt.Errorf("storage persistent id with %d fields, want %d", len(tup), want)
	}
	typ, ok := tup[1].(storageType)
	if !ok {
		return nil, fmt.Errorf("storage type %s is not an allowed torch storage class", typeName(tup[1]))
	}
	key, ok := tup[2].(string)
	if !ok {
		return nil, fmt.Errorf("storage key of type %s", typeName(tup[2]))
	}
	numel, ok := tup[4].(int64)
	if !ok || numel < 0 || numel > math.MaxInt64/16 {
		return nil, fmt.Errorf("storage %q size %v", key, tup[4])
	}
	st := t.storages[key]
	if st == nil {
		st = &storageRef{key: key, dtype: typ.dtype, numel: numel}
		t.storages[key] = st
	} else if st.dtype != typ.dtype || st.numel != numel {
		return nil, fmt.Errorf("storage %q declared as %s[%d] and %s[%d]", key, st.dtype, st.numel, typ.dtype, numel)
	}
	if !t.legacy || tup[5] == nil {
		return st, nil
	}
	view, ok := tup[5].(Tuple)
	if !ok || len(view) != 3 {
		return nil, fmt.Errorf("storage %q view metadata %s", key, typeName(tup[5]))
	}
	vkey, ok1 := view[0].(string)
	voff, ok2 := view[1].(int64)
	vsize, ok3 := view[2].(int64)
	if !ok1 || !ok2 || !ok3 || voff < 0 || vsize < 0 || voff > numel || vsize > numel-voff {
		return nil, fmt.Errorf("storage %q view (%v, %v, %v) out of range", key, view[0], view[1], view[2])
	}
	vk := "view:" + vkey
	if v := t.storages[vk]; v != nil {
		if v.base != st || v.baseOffset != voff || v.numel != vsize {
			return nil, fmt.Errorf("storage view %q declared twice differently", vkey)
		}
		return v, nil
	}
	v := &storageRef{key: vkey, dtype: typ.dtype, numel: vsize, base: st, baseOffset: voff}
	t.storages[vk] = v
	return v, nil
}
