package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/x448/float16"
)

// These golden tests discover the models from the fixture directory
// (testdata/encoders/fixtures, or $STORYEVAL_ENCODER_FIXTURES): manifest.json lists
// the model directories, each weights_index.json the tensors
// pytorch_model.bin holds and those model.safetensors drops as tied aliases.

type fixtureManifest struct {
	Fixtures map[string]struct {
		Dir string `json:"dir"`
	} `json:"fixtures"`
	Files map[string]struct {
		Bytes  int64  `json:"bytes"`
		SHA256 string `json:"sha256"`
	} `json:"files"`
}

type weightsIndex struct {
	Class   string   `json:"class"`
	Dropped []string `json:"safetensors_dropped_tied_keys"`
	Tensors map[string]struct {
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
	} `json:"tensors"`
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// fixtureModels returns the model directories of the fixture set that have a
// weights_index.json, sorted.
func fixtureModels(t *testing.T) (string, []string) {
	t.Helper()
	root := fixturedir.Dir()
	var m fixtureManifest
	readJSON(t, filepath.Join(root, "manifest.json"), &m)
	var dirs []string
	for _, f := range m.Fixtures {
		if _, err := os.Stat(filepath.Join(root, f.Dir, "weights_index.json")); err == nil {
			dirs = append(dirs, f.Dir)
		}
	}
	sort.Strings(dirs)
	if len(dirs) == 0 {
		t.Fatalf("no model with weights_index.json under %s", root)
	}
	return root, dirs
}

// fixtureSafetensors returns the model.safetensors of the first fixture
// model (in name order) that has one, and its largest float tensor.
func fixtureSafetensors(t *testing.T) (path, tensor string) {
	t.Helper()
	root, dirs := fixtureModels(t)
	for _, dir := range dirs {
		path = filepath.Join(root, dir, "model.safetensors")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		st := mustOpen(t, path)
		most := 0
		for _, name := range st.Names() {
			info, _ := st.Info(name)
			n := 1
			for _, d := range info.Shape {
				n *= d
			}
			if info.DType.IsFloat() && n > most {
				tensor, most = name, n
			}
		}
		if tensor != "" {
			return path, tensor
		}
	}
	t.Fatalf("no model.safetensors with a float tensor under %s", root)
	return "", ""
}

var indexDTypes = map[string]DType{"float32": F32, "float16": F16, "int64": I64}

func equalShapes(a, b []int) bool {
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

func mustOpen(t testing.TB, path string) *State {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Error(err)
		}
	})
	return st
}

// float32Bits reads a floating tensor as raw bits, for bit-identity checks.
func float32Bits(t testing.TB, st *State, name string) []uint32 {
	t.Helper()
	x, err := st.Float32(name)
	if err != nil {
		t.Fatal(err)
	}
	var v []float32
	if x.Shape().IsScalar() {
		v = []float32{dense.Data(x).(float32)}
	} else {
		v = dense.Data(x).([]float32)
	}
	out := make([]uint32, len(v))
	for i, f := range v {
		out[i] = math.Float32bits(f)
	}
	return out
}

func int64s(t testing.TB, st *State, name string) []int64 {
	t.Helper()
	x, err := st.Int64(name)
	if err != nil {
		t.Fatal(err)
	}
	if x.Shape().IsScalar() {
		return []int64{dense.Data(x).(int64)}
	}
	return dense.Data(x).([]int64)
}

// TestFixtureSafetensorsMatchIndex checks every model.safetensors against
// weights_index.json: names (less the dropped tied keys), dtypes and shapes.
func TestFixtureSafetensorsMatchIndex(t *testing.T) {
	root, dirs := fixtureModels(t)
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			var idx weightsIndex
			readJSON(t, filepath.Join(root, dir, "weights_index.json"), &idx)
			st, err := OpenDir(filepath.Join(root, dir))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if st.Format() != FormatSafetensors {
				t.Errorf("OpenDir picked %s, want safetensors", st.Format())
			}
			dropped := map[string]bool{}
			for _, k := range idx.Dropped {
				dropped[k] = true
			}
			if got, want := st.Len(), len(idx.Tensors)-len(idx.Dropped); got != want {
				t.Errorf("%d tensors, index lists %d (+%d dropped)", got, want, len(idx.Dropped))
			}
			for name, want := range idx.Tensors {
				info, ok := st.Info(name)
				if dropped[name] {
					if ok {
						t.Errorf("%s: tied key present, index says dropped", name)
					}
					continue
				}
				if !ok {
					t.Errorf("%s missing", name)
					continue
				}
				if info.DType != indexDTypes[want.DType] || !equalShapes(info.Shape, want.Shape) {
					t.Errorf("%s: %s%v, index says %s%v", name, info.DType, info.Shape, want.DType, want.Shape)
				}
			}
		})
	}
}

// TestFixtureBinMatchesSafetensors is the parity criterion: every
// tensor of every fixture model reads bit-identically from pytorch_model.bin
// and model.safetensors. Tied keys that safetensors drops must equal the
// tensor they alias. Models whose .bin is not in the fixture set (to keep
// testdata small) are covered by running with $STORYEVAL_ENCODER_FIXTURES.
func TestFixtureBinMatchesSafetensors(t *testing.T) {
	root, dirs := fixtureModels(t)
	models, tensors, elements := 0, 0, 0
	for _, dir := range dirs {
		bin := filepath.Join(root, dir, "pytorch_model.bin")
		if _, err := os.Stat(bin); err != nil {
			continue
		}
		models++
		t.Run(dir, func(t *testing.T) {
			var idx weightsIndex
			readJSON(t, filepath.Join(root, dir, "weights_index.json"), &idx)
			pt := mustOpen(t, bin)
			sf := mustOpen(t, filepath.Join(root, dir, "model.safetensors"))
			if pt.Format() != FormatTorchZip {
				t.Errorf("format %s, want torch zip", pt.Format())
			}
			if got, want := pt.Len(), len(idx.Tensors); got != want {
				t.Errorf("pytorch_model.bin has %d tensors, index lists %d", got, want)
			}
			for _, name := range pt.Names() {
				pi, _ := pt.Info(name)
				if want, ok := idx.Tensors[name]; !ok || pi.DType != indexDTypes[want.DType] || !equalShapes(pi.Shape, want.Shape) {
					t.Errorf("%s: %s%v in .bin, index says %+v", name, pi.DType, pi.Shape, want)
				}
				si, ok := sf.Info(name)
				if !ok {
					if alias := findEqual(t, pt, sf, name); alias == "" {
						t.Errorf("%s: only in .bin, and equal to no safetensors tensor", name)
					}
					continue
				}
				if si.DType != pi.DType || !equalShapes(si.Shape, pi.Shape) {
					t.Errorf("%s: %s%v in .bin, %s%v in safetensors", name, pi.DType, pi.Shape, si.DType, si.Shape)
					continue
				}
				tensors++
				if pi.DType.IsFloat() {
					a, b := float32Bits(t, pt, name), float32Bits(t, sf, name)
					elements += len(a)
					for i := range a {
						if a[i] != b[i] {
							t.Errorf("%s[%d]: %08x in .bin, %08x in safetensors", name, i, a[i], b[i])
							break
						}
					}
				} else {
					a, b := int64s(t, pt, name), int64s(t, sf, name)
					elements += len(a)
					for i := range a {
						if a[i] != b[i] {
							t.Errorf("%s[%d]: %d in .bin, %d in safetensors", name, i, a[i], b[i])
							break
						}
					}
				}
			}
		})
	}
	if models == 0 {
		t.Fatalf("no pytorch_model.bin under %s", root)
	}
	t.Logf("%d models, %d tensors, %d elements bit-identical between pytorch_model.bin and model.safetensors", models, tensors, elements)
}

// findEqual returns the safetensors tensor bit-identical to the .bin tensor
// name (the alias a tied key shares its storage with), or "".
func findEqual(t *testing.T, pt, sf *State, name string) string {
	pi, _ := pt.Info(name)
	a := float32Bits(t, pt, name)
	for _, other := range sf.Names() {
		si, _ := sf.Info(other)
		if si.DType != pi.DType || !equalShapes(si.Shape, pi.Shape) {
			continue
		}
		b := float32Bits(t, sf, other)
		same := true
		for i := range a {
			if a[i] != b[i] {
				same = false
				break
			}
		}
		if same {
			return other
		}
	}
	return ""
}

// TestFixtureFP16 checks model.fp16.safetensors: every float tensor is the
// float32 one rounded to nearest float16 (exactly), integer buffers kept.
func TestFixtureFP16(t *testing.T) {
	root, dirs := fixtureModels(t)
	found := 0
	for _, dir := range dirs {
		p := filepath.Join(root, dir, "model.fp16.safetensors")
		if _, err := os.Stat(p); err != nil {
			continue
		}
		found++
		t.Run(dir, func(t *testing.T) {
			h := mustOpen(t, p)
			f := mustOpen(t, filepath.Join(root, dir, "model.safetensors"))
			if h.Len() != f.Len() {
				t.Errorf("%d tensors in fp16 file, %d in float32 one", h.Len(), f.Len())
			}
			n := 0
			for _, name := range f.Names() {
				fi, _ := f.Info(name)
				hi, ok := h.Info(name)
				if !ok {
					t.Errorf("%s missing from the fp16 file", name)
					continue
				}
				if !fi.DType.IsFloat() {
					if hi.DType != fi.DType {
						t.Errorf("%s: integer buffer became %s", name, hi.DType)
					}
					continue
				}
				if hi.DType != F16 {
					t.Errorf("%s: %s, want F16", name, hi.DType)
					continue
				}
				full, half := float32Bits(t, f, name), float32Bits(t, h, name)
				for i := range full {
					want := float16.Fromfloat32(math.Float32frombits(full[i])).Float32()
					if half[i] != math.Float32bits(want) {
						t.Errorf("%s[%d]: %v, want %v (float16 of %v)", name, i, math.Float32frombits(half[i]), want, math.Float32frombits(full[i]))
						break
					}
				}
				n += len(full)
			}
			t.Logf("%d elements equal to float16(float32 value)", n)
		})
	}
	if found == 0 {
		t.Fatalf("no model.fp16.safetensors under %s", root)
	}
}

// TestFixtureFilesMatchManifest checks that every fixture file present has
// the size and sha256 manifest.json records, so a copy cannot drift.
func TestFixtureFilesMatchManifest(t *testing.T) {
	root := fixturedir.Dir()
	var m fixtureManifest
	readJSON(t, filepath.Join(root, "manifest.json"), &m)
	checked := 0
	for rel, want := range m.Files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a subset of the fixture set
		}
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if int64(len(b)) != want.Bytes || hex.EncodeToString(sum[:]) != want.SHA256 {
			t.Errorf("%s: %d bytes sha256 %x, manifest says %d bytes %s", rel, len(b), sum, want.Bytes, want.SHA256)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no file of the manifest found")
	}
	t.Logf("%d of %d manifest files present and identical", checked, len(m.Files))
}
