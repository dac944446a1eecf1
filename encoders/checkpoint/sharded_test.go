package checkpoint

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// TestOpenDirSharded splits a fixture model into two safetensors shards with
// a model.safetensors.index.json, as save_pretrained(max_shard_size=…) does,
// and checks OpenDir reads every tensor back bit-identically.
func TestOpenDirSharded(t *testing.T) {
	path, _ := fixtureSafetensors(t)
	src := mustOpen(t, path)
	dir := t.TempDir()
	shards := [2]map[string]rawTensor{{}, {}}
	weightMap := map[string]string{}
	for i, name := range src.Names() {
		shards[i%2][name] = rawOf(t, src, name)
		weightMap[name] = []string{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}[i%2]
	}
	writeSafetensors(t, filepath.Join(dir, "model-00001-of-00002.safetensors"), shards[0])
	writeSafetensors(t, filepath.Join(dir, "model-00002-of-00002.safetensors"), shards[1])
	writeIndex := func(m map[string]string) {
		b, _ := json.Marshal(map[string]any{"metadata": map[string]int{"total_size": 0}, "weight_map": m})
		if err := os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeIndex(weightMap)
	st, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Format() != FormatSharded || st.Len() != src.Len() {
		t.Errorf("format %s with %d tensors, want sharded with %d", st.Format(), st.Len(), src.Len())
	}
	for _, name := range src.Names() {
		if info, _ := src.Info(name); !info.DType.IsFloat() {
			if a, b := int64s(t, src, name), int64s(t, st, name); !slices.Equal(a, b) {
				t.Fatalf("%s differs after sharding", name)
			}
			continue
		}
		a, b := float32Bits(t, src, name), float32Bits(t, st, name)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s[%d] differs after sharding", name, i)
			}
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Float32(src.Names()[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v, want ErrClosed", err)
	}

	// A weight map naming a tensor its shard lacks, or a path outside the
	// directory, is refused.
	bad := map[string]string{"no.such.tensor": "model-00001-of-00002.safetensors"}
	writeIndex(bad)
	if _, err := OpenDir(dir); err == nil || !strings.Contains(err.Error(), "lacks it") {
		t.Errorf("missing tensor: %v", err)
	}
	writeIndex(map[string]string{"x": "../model.safetensors"})
	if _, err := OpenDir(dir); err == nil || !strings.Contains(err.Error(), "plain file name") {
		t.Errorf("path traversal: %v", err)
	}
}

// TestOpenDirPrefersSafetensors checks the choice order of OpenDir.
func TestOpenDirPrefersSafetensors(t *testing.T) {
	root := fixturedir.Dir()
	st, err := OpenDir(filepath.Join(root, "vit"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Format() != FormatSafetensors {
		t.Errorf("vit: %s, want safetensors", st.Format())
	}
	// A directory with only pytorch_model.bin falls back to it.
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(root, "vit", "pytorch_model.bin"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pytorch_model.bin"), b, 0o644)
	bin, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	if bin.Format() != FormatTorchZip || bin.Len() != st.Len() {
		t.Errorf("bin-only dir: %s with %d tensors", bin.Format(), bin.Len())
	}
	if _, err := OpenDir(t.TempDir()); err == nil {
		t.Error("empty directory opened")
	}
}
