package checkpoint

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"os"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// Summary lists what a checkpoint holds, as the storyeval checkpoint
// command prints it (JSON members in field order).
type Summary struct {
	Path    string          `json:"path"`
	Format  string          `json:"format"`
	Tensors []TensorSummary `json:"tensors"`
	// Values are the non-tensor entries (JSONValue of each), nil when
	// there are none.
	Values map[string]any `json:"values,omitempty"`
}

// TensorSummary describes one tensor; the statistics are set only with
// SummaryOptions.Stats and for a tensor with elements.
type TensorSummary struct {
	Name  string            `json:"name"`
	DType string            `json:"dtype"`
	Shape []int             `json:"shape"`
	Mean  *jsonfloat.Float  `json:"mean,omitempty"`
	Min   *jsonfloat.Float  `json:"min,omitempty"`
	Max   *jsonfloat.Float  `json:"max,omitempty"`
	First []jsonfloat.Float `json:"first,omitempty"`
}

// SummaryOptions select what LoadSummary reports. The zero value lists
// every tensor's name, dtype and shape without reading any.
type SummaryOptions struct {
	// Prefix keeps only the names starting with it, shown without it
	// (State.Sub).
	Prefix string
	// Stats reads every tensor for its mean, min, max and first elements
	// (State.Stats).
	Stats bool
}

// LoadSummary opens the checkpoint file or model directory at path (Open
// or OpenDir) and summarizes its tensors and non-tensor entries.
func LoadSummary(path string, opts SummaryOptions) (*Summary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var st *State
	if fi.IsDir() {
		st, err = OpenDir(path)
	} else {
		st, err = Open(path)
	}
	if err != nil {
		return nil, err
	}
	defer st.Close()
	view := st.Sub(opts.Prefix)
	s := &Summary{Path: path, Format: string(st.Format()), Tensors: []TensorSummary{}}
	for _, name := range view.Names() {
		info, _ := view.Info(name)
		t := TensorSummary{Name: name, DType: info.DType.String(), Shape: info.Shape}
		if opts.Stats {
			ts, err := view.Stats(name)
			if err != nil {
				return nil, err
			}
			if ts.Count > 0 {
				t.Mean, t.Min, t.Max = jsonfloat.Ptr(ts.Mean), jsonfloat.Ptr(ts.Min), jsonfloat.Ptr(ts.Max)
				for _, v := range ts.First {
					t.First = append(t.First, jsonfloat.Float(v))
				}
			}
		}
		s.Tensors = append(s.Tensors, t)
	}
	for _, name := range view.ValueNames() {
		if s.Values == nil {
			s.Values = map[string]any{}
		}
		v, _ := view.Value(name)
		s.Values[name] = JSONValue(v)
	}
	return s, nil
}

// JSONValue converts a decoded pickle value (State.Value) to one that
// encoding/json writes faithfully: containers as arrays and objects (dict
// keys formatted with fmt.Sprint), floats in shortest form (null when undefined),
// big integers as decimal strings, bytes as base64, a global as
// {"global"}, an inert instance as {"class", "args", "state"}, and any
// other type by its name. Nesting deeper than 32 levels is cut to "…".
func JSONValue(v any) any { return jsonValue(v, 0) }

func jsonValue(v any, depth int) any {
	if depth > 32 {
		return "…"
	}
	switch x := v.(type) {
	case float64:
		return jsonfloat.Float(x)
	case *big.Int:
		return x.String()
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case Tuple:
		return jsonList(x, depth)
	case *List:
		return jsonList(x.Items, depth)
	case *Set:
		return jsonList(x.Items, depth)
	case *Dict:
		m := map[string]any{}
		for _, it := range x.Items {
			m[fmt.Sprint(it.Key)] = jsonValue(it.Value, depth+1)
		}
		return m
	case Global:
		return map[string]any{"global": x.String()}
	case *Object:
		return map[string]any{"class": x.Class.String(), "args": jsonList(x.Args, depth), "state": jsonValue(x.State, depth+1)}
	case nil, bool, int64, string:
		return x
	}
	return fmt.Sprintf("%T", v)
}

func jsonList(items []any, depth int) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = jsonValue(it, depth+1)
	}
	return out
}
