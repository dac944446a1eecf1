package checkpoint

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

// The RoViST checkpoints are torch.save zip archives of
// {"epoch", "model": state_dict, "valid_loss", …, "opt": argparse.Namespace}
// whose inner folder is the file name minus its last extension. The expected
// values come from an independent reading with Python's unpickler
// (testdata/gen_rovist_expected.py).

type rovistExpected struct {
	Tensors map[string]struct {
		DType string      `json:"dtype"`
		Shape []int       `json:"shape"`
		First json.Number `json:"first"`
		Last  json.Number `json:"last"`
		Sum   json.Number `json:"sum"`
	} `json:"tensors"`
	Values map[string]any `json:"values"`
}

func TestRoViSTCheckpoints(t *testing.T) {
	var all map[string]rovistExpected
	readGzipJSON(t, "testdata/rovist_checkpoints_expected.json.gz", &all)
	for _, file := range []string{"sop_model_epoch4.pth.tar", "r2p_model_epoch2.pth.tar"} {
		want, ok := all[file]
		if !ok {
			t.Fatalf("%s not in the expected file", file)
		}
		t.Run(file, func(t *testing.T) {
			st := mustOpen(t, filepath.Join("testdata", file))
			model := st.Sub("model.")
			if model.Len() != len(want.Tensors) || st.Len() != len(want.Tensors) {
				t.Errorf("%d tensors (%d under model.), want %d", st.Len(), model.Len(), len(want.Tensors))
			}
			for name, w := range want.Tensors {
				info, ok := model.Info(name)
				if !ok {
					t.Errorf("%s missing", name)
					continue
				}
				if info.DType.String() != w.DType || !equalShapes(info.Shape, w.Shape) {
					t.Errorf("%s: %s%v, want %s%v", name, info.DType, info.Shape, w.DType, w.Shape)
					continue
				}
				var vals []float64
				if info.DType.IsFloat() {
					for _, b := range float32Bits(t, model, name) {
						vals = append(vals, float64(math.Float32frombits(b)))
					}
				} else {
					for _, v := range int64s(t, model, name) {
						vals = append(vals, float64(v))
					}
				}
				sum := 0.0
				for _, v := range vals {
					sum += v
				}
				first, _ := w.First.Float64()
				last, _ := w.Last.Float64()
				wsum, _ := w.Sum.Float64()
				if vals[0] != first || vals[len(vals)-1] != last || sum != wsum {
					t.Errorf("%s: first %v last %v sum %v, want %v %v %v", name, vals[0], vals[len(vals)-1], sum, first, last, wsum)
				}
			}
			checkValues(t, st, want.Values)
		})
	}
}

// checkValues compares the non-tensor entries with the Python reading: ints
// as int64, floats as float64, the Namespace as an inert *Object.
func checkValues(t *testing.T, st *State, want map[string]any) {
	t.Helper()
	if got := len(st.ValueNames()); got != len(want) {
		t.Errorf("values %v, want %d of them", st.ValueNames(), len(want))
	}
	for k, w := range want {
		got, ok := st.Value(k)
		if !ok {
			t.Errorf("value %q missing", k)
			continue
		}
		if attrs, isMap := w.(map[string]any); isMap {
			obj, ok := got.(*Object)
			if !ok || obj.Class != (Global{"argparse", "Namespace"}) {
				t.Errorf("%s = %#v, want an inert argparse.Namespace", k, got)
				continue
			}
			for a, av := range attrs {
				v, ok := obj.Attr(a)
				if !ok || !sameScalar(v, av) {
					t.Errorf("%s.%s = %#v, want %v", k, a, v, av)
				}
			}
			continue
		}
		if !sameScalar(got, w) {
			t.Errorf("%s = %#v, want %v", k, got, w)
		}
	}
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

func TestRoViSTSubPrefixes(t *testing.T) {
	st := mustOpen(t, "testdata/sop_model_epoch4.pth.tar")
	albert := st.Sub("model.albert_model.")
	if !albert.Has("embeddings.word_embeddings.weight") || !albert.Has("pooler.weight") {
		t.Errorf("AlbertModel names missing under model.albert_model.: %v", albert.Names())
	}
	lin := st.Sub("model.linear.")
	if got := lin.Names(); len(got) != 2 || got[0] != "bias" || got[1] != "weight" {
		t.Errorf("linear: %v", got)
	}
	if info, _ := lin.Info("weight"); !equalShapes(info.Shape, []int{2, 48}) {
		t.Errorf("linear.weight shape %v, want [2 48]", info.Shape)
	}
	pos, err := albert.Int64("embeddings.position_ids")
	if err != nil {
		t.Fatal(err)
	}
	ids := pos.Data().([]int64)
	if len(ids) != 512 || ids[0] != 0 || ids[511] != 511 {
		t.Errorf("position_ids %v…, want 0..511", ids[:4])
	}
	if err := albert.Close(); err != nil {
		t.Errorf("closing a Sub view: %v", err)
	}
	if _, err := albert.Float32("pooler.bias"); err != nil {
		t.Errorf("the parent must stay open after a Sub view's Close: %v", err)
	}
}
