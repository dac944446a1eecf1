package checkpoint

import (
	"archive/zip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// The end-to-end fixture set (internal/e2efixtures) holds training
// checkpoints written by torch.save in the zip format: a dict {"epoch",
// "model": state_dict, losses, sometimes "opt": argparse.Namespace} whose
// zip folder is the file name minus its last extension, with an
// OrderedDict state_dict carrying _metadata and int64 position_ids buffers.
// Each metric folder's index.json describes its checkpoint
// (checkpoint_format: zip_prefix, pickle_globals; state_dict_tensors: name,
// dtype, shape); this test reads every checkpoint the set lists and checks
// what the index records.

// e2eCheckpointIndex is the part of a metric's index.json that describes
// its checkpoint.
type e2eCheckpointIndex struct {
	CheckpointFormat *struct {
		ZipPrefix      string   `json:"zip_prefix"`
		PickleGlobals  []string `json:"pickle_globals"`
		PickleProtocol int      `json:"pickle_protocol"`
	} `json:"checkpoint_format"`
	StateDictTensors map[string]e2eTensor `json:"state_dict_tensors"`
	Model            json.RawMessage      `json:"model"`
}

type e2eTensor struct {
	Shape []int  `json:"shape"`
	DType string `json:"dtype"`
}

// e2eCheckpoint is one torch checkpoint of the e2e set and its index entry.
type e2eCheckpoint struct {
	path    string
	prefix  string
	globals []string
	tensors map[string]e2eTensor
}

// e2eCheckpoints lists the checkpoints the e2e set's indexes describe.
func e2eCheckpoints(t *testing.T) []e2eCheckpoint {
	t.Helper()
	root := e2efixtures.Dir()
	t.Logf("e2e fixtures: %s", root)
	metrics, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []e2eCheckpoint
	for _, m := range metrics {
		data, err := os.ReadFile(filepath.Join(root, m.Name(), "index.json"))
		if err != nil {
			continue // not a metric folder
		}
		var idx e2eCheckpointIndex
		if err := json.Unmarshal(data, &idx); err != nil {
			t.Fatalf("%s/index.json: %v", m.Name(), err)
		}
		if idx.CheckpointFormat == nil {
			continue
		}
		tensors := idx.StateDictTensors
		if tensors == nil && len(idx.Model) > 0 && idx.Model[0] == '{' {
			var model struct {
				StateDictTensors map[string]e2eTensor `json:"state_dict_tensors"`
			}
			if err := json.Unmarshal(idx.Model, &model); err != nil {
				t.Fatalf("%s/index.json model: %v", m.Name(), err)
			}
			tensors = model.StateDictTensors
		}
		// The checkpoint file is the one whose name the zip prefix starts.
		files, _ := os.ReadDir(filepath.Join(root, m.Name()))
		for _, f := range files {
			if !f.IsDir() && strings.HasPrefix(f.Name(), idx.CheckpointFormat.ZipPrefix) {
				out = append(out, e2eCheckpoint{path: filepath.Join(root, m.Name(), f.Name()),
					prefix: idx.CheckpointFormat.ZipPrefix, globals: idx.CheckpointFormat.PickleGlobals, tensors: tensors})
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no torch checkpoint described in %s", root)
	}
	return out
}

func TestE2ECheckpoints(t *testing.T) {
	for _, c := range e2eCheckpoints(t) {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			checked := checkE2ECheckpoint(t, c.path, c)
			// The zip folder is read from the archive, not derived from the
			// file name: a renamed copy opens the same.
			data, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			renamed := filepath.Join(t.TempDir(), "renamed.bin")
			if err := os.WriteFile(renamed, data, 0o600); err != nil {
				t.Fatal(err)
			}
			if again := checkE2ECheckpoint(t, renamed, c); again != checked {
				t.Errorf("renamed copy: %d checks, the original %d", again, checked)
			}
			t.Logf("%d values checked", checked)
		})
	}
}

// checkE2ECheckpoint opens path and checks it against the index; it returns
// how many facts it checked.
func checkE2ECheckpoint(t *testing.T, path string, c e2eCheckpoint) int {
	t.Helper()
	checked := 0
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(zr.File, func(f *zip.File) bool { return f.Name == c.prefix+"/data.pkl" }) {
		t.Errorf("no %s/data.pkl in the archive", c.prefix)
	}
	zr.Close()
	st := mustOpen(t, path)
	if st.Format() != FormatTorchZip {
		t.Errorf("format %s, want %s", st.Format(), FormatTorchZip)
	}
	// Tensors: every name of the state_dict under "model.", with the
	// index's dtype and shape; float values readable and finite; int64
	// position_ids buffers are 0, 1, 2, … along their last dimension.
	model := st.Sub("model.")
	if model.Len() != len(c.tensors) {
		t.Errorf("%d tensors under model., the index lists %d", model.Len(), len(c.tensors))
	}
	for name, want := range c.tensors {
		info, ok := model.Info(name)
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if !equalShapes(info.Shape, want.Shape) || info.DType.String() != torchDTypeName(want.DType) {
			t.Errorf("%s: %s%v, the index says %s%v", name, info.DType, info.Shape, want.DType, want.Shape)
			continue
		}
		checked++
		if info.DType.IsFloat() {
			for _, b := range float32Bits(t, model, name) {
				if f := math.Float32frombits(b); math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
					t.Fatalf("%s holds %v", name, f)
				}
			}
			continue
		}
		ids := int64s(t, model, name)
		if strings.HasSuffix(name, "position_ids") {
			n := int64(want.Shape[len(want.Shape)-1])
			for i, v := range ids {
				if v != int64(i)%n {
					t.Fatalf("%s[%d] = %d, want %d", name, i, v, int64(i)%n)
				}
			}
			checked++
		}
	}
	// Non-tensor entries: plain values, and an inert object for every
	// class global other than torch's and OrderedDict (argparse.Namespace).
	objects := 0
	for _, k := range st.ValueNames() {
		v, _ := st.Value(k)
		if obj, ok := v.(*Object); ok {
			g := obj.Class.Module + "." + obj.Class.Name
			if !slices.Contains(c.globals, g) {
				t.Errorf("value %s is an object of %s, which the pickle does not name", k, g)
			}
			if d, ok := obj.State.(*Dict); !ok || len(d.Items) == 0 {
				t.Errorf("value %s (%s) has no attributes", k, g)
			}
			objects++
		}
		checked++
	}
	wantObjects := 0
	for _, g := range c.globals {
		if !strings.HasPrefix(g, "torch.") && g != "collections.OrderedDict" {
			wantObjects++
		}
	}
	if objects != wantObjects {
		t.Errorf("%d inert objects among the values, the index's pickle globals %v imply %d", objects, c.globals, wantObjects)
	}
	if err := model.Close(); err != nil {
		t.Errorf("closing a Sub view: %v", err)
	}
	if _, ok := st.Value(st.ValueNames()[0]); !ok {
		t.Error("the parent must stay open after a Sub view's Close")
	}
	if checked == 0 {
		t.Fatalf("%s: nothing checked", path)
	}
	return checked
}

// torchDTypeName maps the index's torch dtype names to DType strings.
func torchDTypeName(torch string) string {
	switch torch {
	case "float32":
		return "F32"
	case "float16":
		return "F16"
	case "bfloat16":
		return "BF16"
	case "float64":
		return "F64"
	case "int64":
		return "I64"
	}
	return torch
}

// sameScalar compares a decoded pickle scalar with a JSON one (json.Number
// for numbers: integers must decode as int64, others as float64).
func sameScalar(got, want any) bool {
	switch w := want.(type) {
	case json.Number:
		if i, err := w.Int64(); err == nil {
			g, ok := got.(int64)
			return ok && g == i
		}
		f, _ := w.Float64()
		g, ok := got.(float64)
		return ok && g == f
	case string:
		g, ok := got.(string)
		return ok && g == w
	case nil:
		return got == nil
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	}
	return false
}
