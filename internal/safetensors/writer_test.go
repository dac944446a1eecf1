package safetensors_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/safetensors"
)

func TestRoundTripThroughCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.safetensors")
	in := []safetensors.Tensor{
		{Name: "b.weight", Shape: []int{2, 3}, F32: []float32{1, -2.5, 3, 4e-30, 5, float32(1) / 3}},
		{Name: "a.bias", Shape: []int{1}, F32: []float32{-7}},
		{Name: "position_ids", Shape: []int{1, 4}, I64: []int64{0, 1, 2, 1 << 40}},
	}
	if err := safetensors.WriteFile(path, in, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, want := range in {
		if want.F32 != nil {
			got, err := st.Float32(want.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !equalShape(got.Shape(), want.Shape) {
				t.Errorf("%s: shape %v, want %v", want.Name, got.Shape(), want.Shape)
			}
			for i, v := range dense.Data(got).([]float32) {
				if v != want.F32[i] {
					t.Errorf("%s[%d] = %v, want %v", want.Name, i, v, want.F32[i])
				}
			}
			continue
		}
		got, err := st.Int64(want.Name)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range dense.Data(got).([]int64) {
			if v != want.I64[i] {
				t.Errorf("%s[%d] = %v, want %v", want.Name, i, v, want.I64[i])
			}
		}
	}
}

func TestWriteRejectsBadTensors(t *testing.T) {
	for name, ts := range map[string][]safetensors.Tensor{
		"shape mismatch": {{Name: "x", Shape: []int{2, 2}, F32: []float32{1, 2, 3}}},
		"no data":        {{Name: "x", Shape: []int{1}}},
		"duplicate":      {{Name: "x", Shape: []int{1}, F32: []float32{1}}, {Name: "x", Shape: []int{1}, F32: []float32{2}}},
		"empty name":     {{Name: "", Shape: []int{1}, F32: []float32{1}}},
	} {
		if err := safetensors.Write(&bytes.Buffer{}, ts, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestAtomicWriteKeepsOldFileOnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := safetensors.WriteFile(path, []safetensors.Tensor{{Name: "x", Shape: []int{3}, F32: []float32{1}}}, nil)
	if err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("error %v, want one naming the tensor", err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "old" {
		t.Errorf("file changed to %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHeaderLengthNeverLooksLikeAPickle writes headers of every length
// modulo 256 and opens each file: a length whose first byte is 0x80 would be
// sniffed as a torch pickle by encoders/checkpoint.
func TestHeaderLengthNeverLooksLikeAPickle(t *testing.T) {
	dir := t.TempDir()
	for n := 1; n <= 40; n++ {
		path := filepath.Join(dir, "m.safetensors")
		name := strings.Repeat("x", n*8)
		if err := safetensors.WriteFile(path, []safetensors.Tensor{{Name: name, Shape: []int{1}, F32: []float32{1}}}, nil); err != nil {
			t.Fatal(err)
		}
		st, err := checkpoint.Open(path)
		if err != nil {
			t.Fatalf("name of %d bytes: %v", len(name), err)
		}
		if !st.Has(name) {
			t.Errorf("name of %d bytes: tensor missing", len(name))
		}
		st.Close()
	}
}
