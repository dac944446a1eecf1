package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckpointCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"checkpoint", "-prefix", "model.", "-stats", "../../testdata/e2e/rovist_c/sop_model_epoch4.pth.tar"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out []struct {
		Format  string
		Tensors []struct {
			Name  string
			DType string
			Shape []int
			Min   float64
			First []float64
		}
		Values map[string]any
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Format != "torch-zip" || len(out[0].Tensors) != 28 {
		t.Fatalf("got %+v", out)
	}
	found := false
	for _, tn := range out[0].Tensors {
		if tn.Name == "albert_model.embeddings.position_ids" {
			found = true
			if tn.DType != "I64" || tn.Shape[1] != 512 || tn.Min != 0 || tn.First[3] != 3 {
				t.Errorf("position_ids: %+v", tn)
			}
		}
	}
	if !found {
		t.Error("albert_model.embeddings.position_ids missing")
	}

	// Without a prefix the non-tensor entries are listed, the Namespace inert.
	stdout.Reset()
	if code := runMain([]string{"checkpoint", "../../testdata/e2e/rovist_c/sop_model_epoch4.pth.tar"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	v := out[0].Values
	opt, _ := v["opt"].(map[string]any)
	state, _ := opt["state"].(map[string]any)
	if v["epoch"] != 4.0 || v["valid_loss"] != 0.3918961449811917 || opt["class"] != "argparse.Namespace" || state["batch_size"] != 32.0 {
		t.Errorf("values %v", v)
	}

	stderr.Reset()
	if code := runMain([]string{"checkpoint", "no/such/file"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "no/such/file") {
		t.Errorf("missing file: exit %d, %q", code, stderr.String())
	}
}
