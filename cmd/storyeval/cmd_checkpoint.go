package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"math/big"
	"os"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

func init() {
	register(command{
		name:    "checkpoint",
		summary: "list the tensors (and non-tensor entries) of safetensors, torch zip/legacy or sharded checkpoints",
		run:     runCheckpoint,
	})
}

// checkpointTensor is the JSON summary of one tensor.
type checkpointTensor struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	// With -stats: over all elements, as float64.
	Mean  *Float  `json:"mean,omitempty"`
	Min   *Float  `json:"min,omitempty"`
	Max   *Float  `json:"max,omitempty"`
	First []Float `json:"first,omitempty"`
}

type checkpointSummary struct {
	Path    string             `json:"path"`
	Format  string             `json:"format"`
	Tensors []checkpointTensor `json:"tensors"`
	Values  map[string]any     `json:"values,omitempty"`
}

func runCheckpoint(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("checkpoint", stderr)
	prefix := fs.String("prefix", "", `only names starting with this prefix, shown without it (e.g. "model.albert_model.")`)
	stats := fs.Bool("stats", false, "read every tensor and report mean, min, max and the first 4 elements")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval checkpoint [-prefix P] [-stats] FILE|MODEL_DIR...")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, -1); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no checkpoint file or model directory given")
	}
	var out []checkpointSummary
	for _, path := range fs.Args() {
		s, err := summarizeCheckpoint(path, *prefix, *stats)
		if err != nil {
			return err
		}
		out = append(out, s)
	}
	return writeJSON(stdout, out)
}

func summarizeCheckpoint(path, prefix string, stats bool) (checkpointSummary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return checkpointSummary{}, err
	}
	var st *checkpoint.State
	if fi.IsDir() {
		st, err = checkpoint.OpenDir(path)
	} else {
		st, err = checkpoint.Open(path)
	}
	if err != nil {
		return checkpointSummary{}, err
	}
	defer st.Close()
	view := st.Sub(prefix)
	s := checkpointSummary{Path: path, Format: string(st.Format()), Tensors: []checkpointTensor{}}
	for _, name := range view.Names() {
		info, _ := view.Info(name)
		t := checkpointTensor{Name: name, DType: info.DType.String(), Shape: info.Shape}
		if stats {
			if err := tensorStats(view, name, &t); err != nil {
				return s, err
			}
		}
		s.Tensors = append(s.Tensors, t)
	}
	for _, name := range view.ValueNames() {
		if s.Values == nil {
			s.Values = map[string]any{}
		}
		v, _ := view.Value(name)
		s.Values[name] = jsonValue(v, 0)
	}
	return s, nil
}

// tensorStats fills t's -stats members; a tensor without elements has
// none.
func tensorStats(st *checkpoint.State, name string, t *checkpointTensor) error {
	s, err := st.Stats(name)
	if err != nil || s.Count == 0 {
		return err
	}
	mean, mn, mx := Float(s.Mean), Float(s.Min), Float(s.Max)
	t.Mean, t.Min, t.Max = &mean, &mn, &mx
	for _, v := range s.First {
		t.First = append(t.First, Float(v))
	}
	return nil
}

// jsonValue converts a decoded pickle value to JSON: containers as arrays and
// objects, bytes as base64, an inert instance as {"class", "state"}.
func jsonValue(v any, depth int) any {
	if depth > 32 {
		return "…"
	}
	switch x := v.(type) {
	case float64:
		return Float(x)
	case *big.Int:
		return x.String()
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case checkpoint.Tuple:
		return jsonList(x, depth)
	case *checkpoint.List:
		return jsonList(x.Items, depth)
	case *checkpoint.Set:
		return jsonList(x.Items, depth)
	case *checkpoint.Dict:
		m := map[string]any{}
		for _, it := range x.Items {
			m[fmt.Sprint(jsonKey(it.Key))] = jsonValue(it.Value, depth+1)
		}
		return m
	case checkpoint.Global:
		return map[string]any{"global": x.String()}
	case *checkpoint.Object:
		return map[string]any{"class": x.Class.String(), "args": jsonList(x.Args, depth), "state": jsonValue(x.State, depth+1)}
	case nil, bool, int64, string:
		return x
	}
	return fmt.Sprintf("%T", v)
}

func jsonKey(k any) any {
	if f, ok := k.(float64); ok {
		return Float(f)
	}
	return k
}

func jsonList(items []any, depth int) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = jsonValue(it, depth+1)
	}
	return out
}
