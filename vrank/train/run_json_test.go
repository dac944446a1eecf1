package train

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestReportsJSON checks the layouts vrank train and vrank pretrain print:
// member names and order, NaN as null, no best_epoch without validation,
// no checkpoint member without a checkpoint, [] for a pre-training run
// without epochs.
func TestReportsJSON(t *testing.T) {
	encode := func(v any) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	tr := TrainReport{Model: "m", BestEpoch: 2, Epochs: []EpochResult{
		{Epoch: 1, TrainLoss: 1.5, ValidationLoss: 0.25, ValidationAccuracy: 0.5, Checkpoint: "c&d/epoch-001"},
		{Epoch: 2, TrainLoss: 1, ValidationLoss: math.NaN(), ValidationAccuracy: math.Inf(1)},
	}}
	want := `{
  "model": "m",
  "best_epoch": 2,
  "epochs": [
    {
      "epoch": 1,
      "train_loss": 1.5,
      "validation_loss": 0.25,
      "validation_accuracy": 0.5,
      "checkpoint": "c&d/epoch-001"
    },
    {
      "epoch": 2,
      "train_loss": 1,
      "validation_loss": null,
      "validation_accuracy": null
    }
  ]
}
`
	if got := encode(tr); got != want {
		t.Errorf("TrainReport: got\n%s\nwant\n%s", got, want)
	}
	if got := encode(TrainReport{Model: "m"}); got != "{\n  \"model\": \"m\",\n  \"epochs\": null\n}\n" {
		t.Errorf("TrainReport without epochs: %s", got)
	}
	pr := PretrainReport{Encoder: "e", Epochs: []PretrainEpoch{{Epoch: 1, TrainLoss: 3, ValidationLoss: math.NaN(), ValidationAccuracy: math.NaN()}}}
	want = `{
  "encoder": "e",
  "epochs": [
    {
      "epoch": 1,
      "train_loss": 3,
      "validation_loss": null,
      "validation_accuracy": null
    }
  ]
}
`
	if got := encode(pr); got != want {
		t.Errorf("PretrainReport: got\n%s\nwant\n%s", got, want)
	}
}
