package checkpoint

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"sort"
	"testing"
)

// rawTensor is a tensor to write in a test file.
type rawTensor struct {
	dtype string
	shape []int
	data  []byte
}

// writeSafetensors writes tensors in the safetensors layout, names sorted,
// data packed in that order (as the safetensors library does).
func writeSafetensors(t testing.TB, path string, tensors map[string]rawTensor) {
	t.Helper()
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var off int
	for _, n := range names {
		rt := tensors[n]
		header[n] = map[string]any{"dtype": rt.dtype, "shape": rt.shape, "data_offsets": []int{off, off + len(rt.data)}}
		off += len(rt.data)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(h)))
	f.Write(n[:])
	f.Write(h)
	for _, name := range names {
		if _, err := f.Write(tensors[name].data); err != nil {
			t.Fatal(err)
		}
	}
}

// rawOf reads a tensor of st back into little-endian bytes (F32 or I64).
func rawOf(t testing.TB, st *State, name string) rawTensor {
	t.Helper()
	info, _ := st.Info(name)
	if info.DType.IsFloat() {
		bits := float32Bits(t, st, name)
		b := make([]byte, 4*len(bits))
		for i, v := range bits {
			binary.LittleEndian.PutUint32(b[4*i:], v)
		}
		return rawTensor{"F32", info.Shape, b}
	}
	v := int64s(t, st, name)
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return rawTensor{"I64", info.Shape, b}
}

func float32LE(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}
