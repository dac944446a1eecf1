package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVrankPretrainThenTrain pre-trains a tiny encoder on a story corpus,
// resumes for one more epoch, and starts vrank train from the result.
func TestVrankPretrainThenTrain(t *testing.T) {
	good, bad := strings.Fields("happy sunny party smiled"), strings.Fields("broken empty grey waited")
	enc := tinyVrankEncoder(t, append(append([]string{}, good...), bad...))
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.json")
	stories := map[string]string{}
	for i := range 20 {
		stories[string(rune('a'+i))] = strings.Join([]string{good[i%4], bad[(i+1)%4], good[(i+2)%4], bad[i%4]}, " ")
	}
	data, _ := json.Marshal(stories)
	if err := os.WriteFile(corpus, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, ck := filepath.Join(dir, "encoder"), filepath.Join(dir, "ckpt")
	var stdout, stderr bytes.Buffer
	args := []string{"vrank", "pretrain", "-corpus", corpus, "-encoder", enc, "-out", out, "-checkpoints", ck, "-epochs", "1", "-batch", "4", "-lr", "1e-3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("pretrain: exit %d: %s", code, stderr.String())
	}
	var res trainOutput
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(res.Epochs) != 1 || res.Epochs[0].Checkpoint != filepath.Join(ck, "epoch-001") {
		t.Errorf("pretrain output %+v", res)
	}
	stdout.Reset()
	args = []string{"vrank", "pretrain", "-corpus", corpus, "-resume", ck, "-out", out, "-epochs", "2", "-batch", "4", "-lr", "1e-3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Epochs) != 2 {
		t.Fatalf("resume output %s (%v)", stdout.String(), err)
	}
	trainCSV := filepath.Join(dir, "train.csv")
	writePairsCSV(t, trainCSV, rand.New(rand.NewSource(3)), 16, good, bad)
	stdout.Reset()
	args = []string{"vrank", "train", "-csv", trainCSV, "-encoder", out, "-out", filepath.Join(dir, "model"), "-epochs", "1", "-batch", "8"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("vrank train from the pre-trained encoder: exit %d: %s", code, stderr.String())
	}
}

func TestVrankPretrainBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"a": ""}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"a": `), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-out", dir}, "give -corpus"},
		{[]string{"-corpus", empty, "-encoder", dir, "-out", dir}, `story "a" is empty`},
		{[]string{"-corpus", bad, "-encoder", dir, "-out", dir}, "bad.json"},
		{[]string{"-corpus", empty, "-encoder", dir, "-out", dir, "-mask-prob", "1"}, "-mask-prob"},
		{[]string{"-corpus", filepath.Join(dir, "nope.json"), "-encoder", dir, "-out", dir}, "nope.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(append([]string{"vrank", "pretrain"}, tc.args...), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error mentioning %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
