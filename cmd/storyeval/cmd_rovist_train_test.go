package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
)

// TestRovistTrainFixture trains the fixture's RoViST-VG checkpoint for two
// epochs on the region–phrase pairs of its symloss batch, then resumes for
// a third, and scores with the written model.
func TestRovistTrainFixture(t *testing.T) {
	dir := e2efixtures.Metric("rovist_vg")
	t.Logf("fixtures: %s", dir)
	data, err := os.ReadFile(filepath.Join(dir, "symloss", "batch.json"))
	if err != nil {
		t.Fatal(err)
	}
	var batch struct {
		Rows []struct {
			ImageID    json.Number `json:"image_id"`
			BBox       string      `json:"bbox"`
			File       string      `json:"file"`
			NounPhrase string      `json:"noun_phrase"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(data, &batch); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	pairs := filepath.Join(tmp, "pairs.csv")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"image_id", "bbox", "noun_phrase"})
	for _, r := range batch.Rows {
		w.Write([]string{r.ImageID.String(), r.BBox, r.NounPhrase})
	}
	w.Flush()
	if err := os.WriteFile(pairs, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	crops := filepath.Dir(filepath.Join(dir, batch.Rows[0].File))
	ckpts, _ := filepath.Glob(filepath.Join(dir, "*.pth.tar"))
	vits, _ := filepath.Glob(filepath.Join(dir, "*", "preprocessor_config.json"))
	globs, _ := filepath.Glob(filepath.Join(dir, "glove*.txt"))
	if len(ckpts) != 1 || len(vits) != 1 || len(globs) != 1 {
		t.Fatalf("fixture: %v %v %v", ckpts, vits, globs)
	}
	out, ck := filepath.Join(tmp, "model"), filepath.Join(tmp, "ck")
	common := []string{"-pairs", pairs, "-crops", crops, "-glove", globs[0], "-out", out, "-checkpoints", ck,
		"-batch", "2", "-val-fraction", "0.5", "-lr", "1e-4"}
	var stdout, stderr bytes.Buffer
	args := append([]string{"rovist", "train", "vg", "-init", ckpts[0], "-vit", filepath.Dir(vits[0]), "-epochs", "2"}, common...)
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var res trainOutput
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(res.Epochs) != 2 || res.Epochs[0].Epoch != 1 || res.Epochs[1].Epoch != 2 || res.Epochs[1].Checkpoint != filepath.Join(ck, "epoch-002") || !(res.Epochs[0].ValidationLoss > 0) {
		t.Errorf("output %s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "epoch 1/2:") || !strings.Contains(stderr.String(), "epoch 2/2:") || strings.Contains(stderr.String(), "epoch 3/2") {
		t.Errorf("no per-epoch line on stderr: %q", stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	args = append([]string{"rovist", "train", "vg", "-resume", ck, "-epochs", "3"}, common...)
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	res = trainOutput{}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Epochs) != 1 || res.Epochs[0].Epoch != 3 || res.Epochs[0].Checkpoint != filepath.Join(ck, "epoch-003") {
		t.Errorf("resume output %s (%v)", stdout.String(), err)
	}
	if _, err := rovist.LoadGroundingModel(res.Model, out); err != nil {
		t.Errorf("the trained model does not load for scoring: %v", err)
	}
}

// TestRovistTrainBadInput checks the flag and file errors.
func TestRovistTrainBadInput(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.csv")
	os.WriteFile(bad, []byte("image_id,bbox\n1,\"[1.0, 2.0, 3.0, 4.0]\"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"rovist", "train", "vg"}, "give -pairs"},
		{[]string{"rovist", "train", "vg", "-pairs", bad, "-crops", tmp, "-glove", bad, "-out", tmp, "-init", tmp}, "noun_phrase"},
		{[]string{"rovist", "train", "vg", "-pairs", bad, "-crops", tmp, "-glove", bad, "-out", tmp, "-init", tmp, "-batch", "0"}, "-batch"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(tc.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want it to mention %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
