package groovist_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/groovist"
)

// TestInputFilesLoad reads a VWP run (ids from the table, θ its preset) and
// checks that each bad input is an *InputError naming it.
func TestInputFilesLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stories := write("stories.json", `{"scene1;2": "A dog ran. The cat sat."}`)
	table := write("vwp.json", `{"scene1": 2}`)
	r, err := groovist.InputFiles{Stories: stories, Dataset: "VWP", ImageTable: table}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Inputs) != 1 || len(r.Inputs[0].Images) != 2 || r.Inputs[0].Images[1].ID != "scene1_1" {
		t.Errorf("inputs %+v, want one story with the images scene1_0, scene1_1", r.Inputs)
	}
	if r.Theta.Value() != groovist.ThetaVWP || r.EstimateTheta {
		t.Errorf("θ %v (estimate %v), want the VWP preset %v", r.Theta.Value(), r.EstimateTheta, groovist.ThetaVWP)
	}
	if r, err := (groovist.InputFiles{Stories: stories, Dataset: "aesop", Theta: "estimate"}).Load(); err != nil || !r.EstimateTheta || r.Inputs[0].Images[2].ID != "scene1;2_2" {
		t.Errorf("AESOP, θ estimate: %+v, %v; want AESOP's ids and EstimateTheta", r, err)
	}
	for _, c := range []struct {
		input string
		f     groovist.InputFiles
	}{
		{"dataset", groovist.InputFiles{Stories: stories, Dataset: "coco"}},
		{"image table", groovist.InputFiles{Stories: stories, Dataset: "vwp"}},
		{"image table", groovist.InputFiles{Stories: stories, Dataset: "vwp", ImageTable: filepath.Join(dir, "none.json")}},
		{"theta", groovist.InputFiles{Stories: stories, Dataset: "aesop", Theta: "high"}},
	} {
		_, err := c.f.Load()
		if ie := (*groovist.InputError)(nil); !errors.As(err, &ie) || ie.Input != c.input {
			t.Errorf("%+v: %v, want an *InputError for %s", c.f, err, c.input)
		}
	}
	_, err = groovist.InputFiles{Stories: stories, Dataset: "vist"}.Load()
	if nt := (*groovist.NoImageTableError)(nil); !errors.As(err, &nt) || nt.Dataset != groovist.VIST {
		t.Errorf("vist without a table: %v, want a NoImageTableError for vist", err)
	}
	// The inputs are read first: their error is LoadInputs's, not an InputError.
	_, err = groovist.InputFiles{Stories: filepath.Join(dir, "none.json"), Dataset: "coco"}.Load()
	if !errors.As(err, new(*fs.PathError)) || errors.As(err, new(*groovist.InputError)) {
		t.Errorf("missing stories and a bad dataset: %v, want the stories' *fs.PathError", err)
	}
}

// TestRunInputsFinish checks that Finish rescores with the estimated θ
// (0.625, the mean scaled score of the two phrases, by hand) only when
// the run estimates it.
func TestRunInputsFinish(t *testing.T) {
	res := []groovist.Result{{NPs: []groovist.NPScore{{Scaled: 1, Weight: 2}, {Scaled: 0.25, Weight: 4}}}}
	opts := groovist.Options{Theta: groovist.ThetaOf(0.5)}
	if got := (groovist.RunInputs{}).Finish(res, &opts); !reflect.DeepEqual(got, res) || opts.Theta.Value() != 0.5 {
		t.Errorf("no estimate: θ %v, results %+v; want them untouched", opts.Theta.Value(), got)
	}
	got := groovist.RunInputs{EstimateTheta: true}.Finish(res, &opts)
	want := groovist.Rescore(res, groovist.Options{Theta: groovist.ThetaOf(0.625)})
	if opts.Theta.Value() != 0.625 || !reflect.DeepEqual(got, want) {
		t.Errorf("estimate: θ %v, results %+v; want θ 0.625 and %+v", opts.Theta.Value(), got, want)
	}
}
