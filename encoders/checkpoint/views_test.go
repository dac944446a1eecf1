package checkpoint

import (
	"encoding/json"
	"math"
	"testing"
)

// torch_zip_views.pt and torch_legacy_views.pt hold what the HF fixtures do
// not: transposed, offset, stepped and stride-0 views of one shared storage,
// a legacy storage view, F16/BF16/F64/I64/I32/BOOL, a scalar, an
// nn.Parameter, nested dicts and an argparse.Namespace. The expected values
// are the logical contents, written by testdata/gen_torch_formats.py
// independently of the storage layout.

type viewsExpected map[string]struct {
	DType  string        `json:"dtype"`
	Shape  []int         `json:"shape"`
	Values []json.Number `json:"values"`
}

func TestTorchViews(t *testing.T) {
	var exp struct {
		Zip    viewsExpected  `json:"zip"`
		Legacy viewsExpected  `json:"legacy"`
		Values map[string]any `json:"values"`
	}
	readGzipJSON(t, "testdata/torch_formats_expected.json.gz", &exp)
	cases := []struct {
		file   string
		format Format
		want   viewsExpected
		noMmap bool
	}{
		{"testdata/torch_zip_views.pt", FormatTorchZip, exp.Zip, false},
		{"testdata/torch_legacy_views.pt", FormatTorchLegacy, exp.Legacy, false},
		{"testdata/torch_zip_views.pt", FormatTorchZip, exp.Zip, true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			st, err := Options{NoMmap: c.noMmap}.Open(c.file)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if st.Format() != c.format {
				t.Errorf("format %s, want %s", st.Format(), c.format)
			}
			model := st.Sub("model.")
			if model.Len() != len(c.want) {
				t.Errorf("%d tensors %v, want %d", model.Len(), model.Names(), len(c.want))
			}
			for name, w := range c.want {
				info, ok := model.Info(name)
				if !ok {
					t.Errorf("%s missing", name)
					continue
				}
				if info.DType.String() != w.DType || !equalShapes(info.Shape, w.Shape) {
					t.Errorf("%s: %s%v, want %s%v", name, info.DType, info.Shape, w.DType, w.Shape)
					continue
				}
				if info.DType.IsFloat() {
					got := float32Bits(t, model, name)
					for i, wv := range w.Values {
						f, _ := wv.Float64()
						if got[i] != math.Float32bits(float32(f)) {
							t.Errorf("%s[%d] = %v, want %v", name, i, math.Float32frombits(got[i]), float32(f))
						}
					}
				} else {
					got := int64s(t, model, name)
					for i, wv := range w.Values {
						n, _ := wv.Int64()
						if got[i] != n {
							t.Errorf("%s[%d] = %d, want %d", name, i, got[i], n)
						}
					}
				}
			}
			for k, w := range exp.Values {
				var got any
				var ok bool
				if len(k) > 4 && k[:4] == "opt." {
					var opt any
					if opt, ok = st.Value("opt"); ok {
						got, ok = opt.(*Object).Attr(k[4:])
					}
				} else {
					got, ok = st.Value(k)
				}
				if !ok || !sameScalar(got, w) {
					t.Errorf("%s = %#v, want %v", k, got, w)
				}
			}
			blob, _ := st.Value("blob")
			if b, ok := blob.([]byte); !ok || string(b) != "\x00\xff" {
				t.Errorf("blob = %#v, want bytes 00 ff", blob)
			}
			hist, _ := st.Value("history")
			if l, ok := hist.(*List); !ok || len(l.Items) != 5 || l.Items[1] != 2.5 || l.Items[2] != "x" || l.Items[3] != nil || l.Items[4] != true {
				t.Errorf("history = %#v", hist)
			}
		})
	}
}

// TestTorchSharedStorage checks that the transposed view reads the same
// storage elements as the weight it shares them with.
func TestTorchSharedStorage(t *testing.T) {
	st := mustOpen(t, "testdata/torch_zip_views.pt")
	w, err := st.Float32("model.dense.weight")
	if err != nil {
		t.Fatal(err)
	}
	wt, err := st.Float32("model.dense.weight_t")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			a, _ := w.At(i, j)
			b, _ := wt.At(j, i)
			if a != b {
				t.Fatalf("weight[%d,%d] = %v, weight_t[%d,%d] = %v", i, j, a, j, i, b)
			}
		}
	}
}
