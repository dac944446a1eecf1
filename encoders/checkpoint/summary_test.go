package checkpoint_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

const sopCheckpoint = "../../testdata/e2e/rovist_c/sop_model_epoch4.pth.tar"

// TestLoadSummary checks the summary of RoViST-C's released-format
// training checkpoint: its 28 ALBERT+linear tensors under "model.", the
// int64 position_ids buffer 0, 1, 2, 3, … and the pickled epoch, loss and
// argparse.Namespace (inert) beside them.
func TestLoadSummary(t *testing.T) {
	s, err := checkpoint.LoadSummary(sopCheckpoint, checkpoint.SummaryOptions{Prefix: "model.", Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != "torch-zip" || len(s.Tensors) != 28 || s.Values != nil {
		t.Fatalf("format %s, %d tensors, values %v", s.Format, len(s.Tensors), s.Values)
	}
	found := false
	for _, tn := range s.Tensors {
		if tn.Name == "albert_model.embeddings.position_ids" {
			found = true
			if tn.DType != "I64" || tn.Shape[1] != 512 || *tn.Min != 0 || *tn.Max != 511 || len(tn.First) != 4 || tn.First[3] != 3 {
				t.Errorf("position_ids: %+v", tn)
			}
		}
	}
	if !found {
		t.Error("albert_model.embeddings.position_ids missing")
	}

	s, err = checkpoint.LoadSummary(sopCheckpoint, checkpoint.SummaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(s.Values)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	opt, _ := v["opt"].(map[string]any)
	state, _ := opt["state"].(map[string]any)
	if v["epoch"] != 4.0 || v["valid_loss"] != 0.3918961449811917 || opt["class"] != "argparse.Namespace" || state["batch_size"] != 32.0 {
		t.Errorf("values %s", data)
	}
	if s.Tensors[0].Mean != nil {
		t.Errorf("statistics without Stats: %+v", s.Tensors[0])
	}

	if _, err := checkpoint.LoadSummary("no/such/file", checkpoint.SummaryOptions{}); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

// TestJSONValue checks the conversion of each kind of pickle value.
func TestJSONValue(t *testing.T) {
	d := &checkpoint.Dict{Items: []checkpoint.Item{{Key: 0.5, Value: []byte("hi")}, {Key: int64(2), Value: checkpoint.Tuple{1.5, nil, true}}}}
	obj := &checkpoint.Object{Class: checkpoint.Global{Module: "m", Name: "C"}, Args: []any{"a"}, State: d}
	data, err := json.Marshal(checkpoint.JSONValue(obj))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"args":["a"],"class":"m.C","state":{"0.5":"aGk=","2":[1.5,null,true]}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	deep := any("x")
	for range 40 {
		deep = checkpoint.Tuple{deep}
	}
	data, _ = json.Marshal(checkpoint.JSONValue(deep))
	if len(data) != 33*2+len(`"…"`) {
		t.Errorf("nesting not cut at 32 levels: %s", data)
	}
}

// List the tensors of a checkpoint under a prefix (RoViST-C's 2-way
// classifier head on 48-dimensional ALBERT states) and the non-tensor
// entries of the whole file.
func ExampleLoadSummary() {
	s, err := checkpoint.LoadSummary(sopCheckpoint, checkpoint.SummaryOptions{Prefix: "model.linear."})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range s.Tensors {
		fmt.Println(t.Name, t.DType, t.Shape)
	}
	if s, err = checkpoint.LoadSummary(sopCheckpoint, checkpoint.SummaryOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Format, s.Values["epoch"])
	// Output:
	// bias F32 [2]
	// weight F32 [2 48]
	// torch-zip 4
}
