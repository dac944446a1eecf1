package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"sort"
)

// The legacy torch.save format (PyTorch < 1.6, or
// _use_new_zipfile_serialization=False) is a concatenation of pickles and raw
// data: the magic number 0x1950a86a20f9469cfc6c, the protocol version 1001, a
// sys_info dict, the object pickle (storages as persistent ids
// ('storage', type, key, location, numel, view)), the pickled list of storage
// keys, then for each key in that order an int64 element count and the raw
// little-endian elements.

// legacyMagic is torch.serialization.MAGIC_NUMBER.
var legacyMagic, _ = new(big.Int).SetString("1950a86a20f9469cfc6c", 16)

const legacyProtocolVersion = 1001

func (o Options) parseTorchLegacy(data []byte) (*State, error) {
	pos := 0
	next := func(what string, resolve func(string, string) any, pl func(any) (any, error)) (any, error) {
		rest := data[pos:]
		if int64(len(rest)) > o.MaxPickleBytes {
			rest = rest[:o.MaxPickleBytes]
		}
		v, n, err := decodePickle(rest, resolve, pl)
		if err != nil {
			return nil, fmt.Errorf("torch legacy: %s pickle at byte %d: %w", what, pos, err)
		}
		pos += n
		return v, nil
	}
	magic, err := next("magic number", nil, nil)
	if err != nil {
		return nil, err
	}
	if m, ok := magic.(*big.Int); !ok || m.Cmp(legacyMagic) != 0 {
		return nil, errors.New("torch legacy: a pickle without torch's magic number; use DecodePickle for plain pickles")
	}
	proto, err := next("protocol version", nil, nil)
	if err != nil {
		return nil, err
	}
	if p, ok := proto.(int64); !ok || p != legacyProtocolVersion {
		return nil, fmt.Errorf("torch legacy: protocol version %v, want %d", proto, legacyProtocolVersion)
	}
	sysInfo, err := next("sys_info", nil, nil)
	if err != nil {
		return nil, err
	}
	if d, ok := sysInfo.(*Dict); ok {
		if le, ok := d.Get("little_endian"); ok && le != true {
			return nil, errors.New("torch legacy: written on a big-endian machine, not supported")
		}
	}
	tu := newTorchUnpickler(true)
	objStart := pos
	root, err := next("object", tu.resolve, tu.persistentLoad)
	if err != nil {
		return nil, err
	}
	objLen := pos - objStart
	keysVal, err := next("storage keys", nil, nil)
	if err != nil {
		return nil, err
	}
	keyList, ok := keysVal.(*List)
	if !ok {
		return nil, fmt.Errorf("torch legacy: storage keys are a %s, not a list", typeName(keysVal))
	}
	roots := make(map[string]*storageRef)
	for _, sr := range tu.storages {
		if sr.base == nil {
			roots[sr.key] = sr
		}
	}
	storages := make(map[*storageRef][]byte)
	for i, k := range keyList.Items {
		key, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("torch legacy: storage key %d is a %s", i, typeName(k))
		}
		sr := roots[key]
		if sr == nil {
			return nil, fmt.Errorf("torch legacy: storage %q is stored but never used, so its element size is unknown", key)
		}
		if len(data)-pos < 8 {
			return nil, fmt.Errorf("torch legacy: storage %q: file ends before its size", key)
		}
		numel := binary.LittleEndian.Uint64(data[pos:])
		pos += 8
		size := uint64(sr.dtype.Size())
		if numel != uint64(sr.numel) {
			return nil, fmt.Errorf("torch legacy: storage %q holds %d elements, the pickle declares %d", key, numel, sr.numel)
		}
		if numel > uint64(len(data)-pos)/size {
			return nil, fmt.Errorf("torch legacy: storage %q: %d %s elements run past the end of the file", key, numel, sr.dtype)
		}
		n := int(numel * size)
		storages[sr] = data[pos : pos+n]
		pos += n
	}
	if missing := missingStorages(roots, storages); len(missing) > 0 {
		return nil, fmt.Errorf("torch legacy: storages %q are used but not stored", missing)
	}
	st := newState(FormatTorchLegacy)
	if err := st.addPickled(root, storages, objLen); err != nil {
		return nil, fmt.Errorf("torch legacy: %w", err)
	}
	return st, nil
}

func missingStorages(roots map[string]*storageRef, have map[*storageRef][]byte) []string {
	var out []string
	for k, sr := range roots {
		if _, ok := have[sr]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
