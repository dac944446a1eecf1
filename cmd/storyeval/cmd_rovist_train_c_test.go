package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/rovist"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/story"
)

// TestRovistTrainCThenScore fine-tunes the fixture's RoViST-C checkpoint
// for an epoch, resumes for another, and scores with the trained folder
// through the rovist command, whose numbers must be the library's on the
// saved model.
func TestRovistTrainCThenScore(t *testing.T) {
	fix := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", fix)
	ckpts, _ := filepath.Glob(filepath.Join(fix, "*.pth.tar"))
	albert, _ := filepath.Glob(filepath.Join(fix, "*", "spiece.model"))
	if len(ckpts) != 1 || len(albert) != 1 {
		t.Fatalf("want one checkpoint and one ALBERT folder in %s", fix)
	}
	stories := filepath.Join(fix, "stories.json")
	dir := t.TempDir()
	out, ck := filepath.Join(dir, "model"), filepath.Join(dir, "ckpt")
	var stdout, stderr bytes.Buffer
	args := []string{"rovist", "train", "c", "-stories", stories, "-albert", filepath.Dir(albert[0]), "-checkpoint", ckpts[0],
		"-out", out, "-checkpoints", ck, "-epochs", "1", "-batch", "8", "-lr", "1e-4", "-seed", "3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr.String())
	}
	var res trainOutput
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(res.Epochs) != 1 || res.Epochs[0].Checkpoint != filepath.Join(ck, "epoch-001") {
		t.Errorf("train output %+v", res)
	}
	if !strings.Contains(stderr.String(), "epoch 1/1: train loss") {
		t.Errorf("no per-epoch progress on stderr: %q", stderr.String())
	}
	stdout.Reset()
	args = []string{"rovist", "train", "c", "-stories", stories, "-resume", ck, "-out", out, "-epochs", "2", "-batch", "8", "-lr", "1e-4", "-seed", "3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Epochs) != 2 {
		t.Fatalf("resume output %s (%v)", stdout.String(), err)
	}

	stdout.Reset()
	args = []string{"rovist", "-stories", stories, "-coherence-model", filepath.Join(out, rovisttrain.CoherenceWeightsFile), "-albert", out, "-metrics", "c", "-format", "json"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("rovist: exit %d: %s", code, stderr.String())
	}
	m, err := rovisttrain.LoadCoherenceModelDir(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := story.LoadJSON(stories, story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.ScoreSet(t.Context(), set, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range set.Stories() {
		if !want[i].Defined {
			continue
		}
		if !strings.Contains(stdout.String(), jsonfloat.CSV(want[i].Score)) {
			t.Errorf("story %s: the rovist output does not hold the library's score %s", st.ID, jsonfloat.CSV(want[i].Score))
		}
	}
}

func TestRovistTrainCBadInput(t *testing.T) {
	dir := t.TempDir()
	oneSentence := filepath.Join(dir, "one.json")
	if err := os.WriteFile(oneSentence, []byte(`{"a": "only one sentence here."}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-out", dir}, "give -stories"},
		{[]string{"-stories", oneSentence, "-albert", dir, "-out", dir}, "no story has two sentences"},
		{[]string{"-stories", filepath.Join(dir, "missing.json"), "-albert", dir, "-out", dir}, "missing.json"},
		{[]string{"-stories", oneSentence, "-albert", dir, "-out", dir, "-lr", "-1"}, "must be positive"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(append([]string{"rovist", "train", "c"}, tc.args...), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error mentioning %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
