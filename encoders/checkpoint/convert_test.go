package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestConvertFileTorchZip converts the torch zip fixture (strided views,
// F16, BF16, F64, integer buffers) and reads the file back: every tensor
// holds what Float32/Int64 read from the original (the 0-dimensional
// "scalar" included), under its name without the torch.save dict's
// "model.", and the non-tensor entries are gone.
func TestConvertFileTorchZip(t *testing.T) {
	in := filepath.Join("testdata", "torch_zip_views.pt")
	out := filepath.Join(t.TempDir(), "model.safetensors")
	n, err := ConvertFile(in, out, ConvertOptions{StripPrefix: "model.", Metadata: map[string]string{"converted_from": in}})
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if dst.Format() != FormatSafetensors {
		t.Errorf("format %s", dst.Format())
	}
	src = src.Sub("model.")
	if n != src.Len() || !slices.Equal(dst.Names(), src.Names()) || !slices.Contains(dst.Names(), "scalar") {
		t.Fatalf("wrote %d tensors %v, source has %v", n, dst.Names(), src.Names())
	}
	if len(dst.ValueNames()) != 0 {
		t.Errorf("non-tensor entries written: %v", dst.ValueNames())
	}
	if got := dst.Metadata()["converted_from"]; got != in {
		t.Errorf("metadata converted_from %q", got)
	}
	for _, name := range src.Names() {
		want, got := rawOf(t, src, name), rawOf(t, dst, name)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: converted %+v, source %+v", name, got, want)
		}
	}
}

// TestWriteSafetensorsStripsPrefix: a prefix on every name is dropped, as a
// torch.save dict's "model." is.
func TestWriteSafetensorsStripsPrefix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.safetensors")
	writeSafetensors(t, path, map[string]rawTensor{
		"model.a": {"F32", []int{2}, float32LE(1.5, -2)},
		"model.b": {"I64", []int{1}, make([]byte, 8)},
	})
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var buf bytes.Buffer
	n, err := st.WriteSafetensors(&buf, ConvertOptions{StripPrefix: "model."})
	if err != nil || n != 2 {
		t.Fatalf("wrote %d tensors, error %v", n, err)
	}
	out := filepath.Join(t.TempDir(), "out.safetensors")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if got := back.Names(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("names %v, want [a b]", got)
	}
	if got := rawOf(t, back, "a"); !bytes.Equal(got.data, float32LE(1.5, -2)) {
		t.Errorf("a: %v", got)
	}
}

func TestConvertFileErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.safetensors")
	writeSafetensors(t, empty, map[string]rawTensor{})
	if _, err := ConvertFile(empty, filepath.Join(dir, "out.safetensors"), ConvertOptions{}); err == nil || !strings.Contains(err.Error(), "empty.safetensors: checkpoint holds no tensors") {
		t.Errorf("no tensors: error %v", err)
	}
	if _, err := ConvertFile(filepath.Join(dir, "none.pt"), filepath.Join(dir, "out.safetensors"), ConvertOptions{}); err == nil {
		t.Error("missing file: no error")
	}
}

// TestStats checks the summary by hand: dense.weight of the torch zip
// fixture holds −2.5, −1.5, …, 8.5 (mean 3); position_ids holds
// 0, 1, …, 6 and −2⁴⁰.
func TestStats(t *testing.T) {
	st, err := Open(filepath.Join("testdata", "torch_zip_views.pt"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st = st.Sub("model.")
	got, err := st.Stats("dense.weight")
	if err != nil {
		t.Fatal(err)
	}
	want := TensorStats{Count: 12, Mean: 3, Min: -2.5, Max: 8.5, First: []float64{-2.5, -1.5, -0.5, 0.5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dense.weight: %+v, want %+v", got, want)
	}
	got, err = st.Stats("position_ids")
	if err != nil {
		t.Fatal(err)
	}
	want = TensorStats{Count: 8, Mean: (21 - 1099511627776) / 8.0, Min: -1099511627776, Max: 6, First: []float64{0, 1, 2, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("position_ids: %+v, want %+v", got, want)
	}
	if _, err := st.Stats("no.such.tensor"); err == nil {
		t.Error("missing tensor: no error")
	}
}
