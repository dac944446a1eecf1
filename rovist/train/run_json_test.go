package train

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// encodeAsCommand encodes v as storyeval's commands write JSON: indented,
// without HTML escaping.
func encodeAsCommand(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestVGReportJSON checks the layout rovist train vg prints: member names
// and order, NaN as null, no checkpoint member without a checkpoint, and a
// path with & and < written as it is.
func TestVGReportJSON(t *testing.T) {
	rep := VGReport{Model: "out/model.safetensors", Temperature: 1, Epochs: []VGEpochResult{
		{Epoch: 1, TrainLoss: 2.5, ValidationLoss: math.NaN(), LearningRate: 1e-4, Best: true, Checkpoint: "a&b<c/epoch-001"},
		{Epoch: 2, TrainLoss: 0.125, ValidationLoss: 1.5, LearningRate: 9.5e-05},
	}}
	want := `{
  "model": "out/model.safetensors",
  "temperature": 1,
  "epochs": [
    {
      "epoch": 1,
      "learning_rate": 0.0001,
      "train_loss": 2.5,
      "validation_loss": null,
      "best": true,
      "checkpoint": "a&b<c/epoch-001"
    },
    {
      "epoch": 2,
      "learning_rate": 9.5e-05,
      "train_loss": 0.125,
      "validation_loss": 1.5,
      "best": false
    }
  ]
}
`
	if got := encodeAsCommand(t, rep); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := encodeAsCommand(t, VGReport{Temperature: math.NaN()}); got != "{\n  \"model\": \"\",\n  \"temperature\": null,\n  \"epochs\": null\n}\n" {
		t.Errorf("empty report: %s", got)
	}
}

// TestCoherenceReportJSON checks the layout rovist train c prints.
func TestCoherenceReportJSON(t *testing.T) {
	rep := CoherenceReport{Model: "out", Epochs: []CoherenceEpoch{{Epoch: 3, LearningRate: 1e-5, TrainLoss: 0.5, TrainAccuracy: 0.75,
		ValidationLoss: math.NaN(), ValidationAccuracy: math.NaN()}}}
	want := `{
  "model": "out",
  "epochs": [
    {
      "epoch": 3,
      "learning_rate": 1e-05,
      "train_loss": 0.5,
      "train_accuracy": 0.75,
      "validation_loss": null,
      "validation_accuracy": null
    }
  ]
}
`
	if got := encodeAsCommand(t, rep); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRunsCheckTheirData: a stories file without a two-sentence story and
// a -stories set that leaves no training pair are one-line errors naming
// the file, before any model is opened.
func TestRunsCheckTheirData(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.json")
	if err := os.WriteFile(one, []byte(`{"a": "only one sentence here."}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := CoherenceRun{Stories: one, ALBERT: filepath.Join(dir, "no-albert"), Out: dir}
	if _, err := c.Run(t.Context()); err == nil || err.Error() != one+": no story has two sentences to make a pair from" {
		t.Errorf("RoViST-C: %v", err)
	}
	pairs := filepath.Join(dir, "pairs.csv")
	stories := filepath.Join(dir, "stories.json")
	if err := os.WriteFile(pairs, []byte("image_id,bbox,noun_phrase\n1,\"[1.0, 2.0, 3.0, 4.0]\",a dog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stories, []byte(`{"s": {"story": "a cat.", "images": ["2"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	vg := VGRun{Pairs: pairs, Stories: stories, Crops: dir, GloVe: filepath.Join(dir, "no-glove"), Init: dir, Out: dir}
	if _, err := vg.Run(t.Context()); err == nil || !strings.Contains(err.Error(), "no training pairs left in "+pairs) {
		t.Errorf("RoViST-VG: %v", err)
	}
}
