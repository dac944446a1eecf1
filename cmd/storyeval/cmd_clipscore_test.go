package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestCLIPScoreCommandMatchesOriginalOutput runs the subcommand as
// clipscore.py's main() was run and compares with per_instance.json and
// the system means of expected.json.
func TestCLIPScoreCommandMatchesOriginalOutput(t *testing.T) {
	dir := e2efixtures.Metric("clipscore")
	t.Logf("fixtures: %s", dir)
	var stdout, stderr bytes.Buffer
	args := []string{"clipscore", "-cands", filepath.Join(dir, "candidates.json"), "-images", filepath.Join(dir, "images"),
		"-refs", filepath.Join(dir, "refs.json"), "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got struct {
		CLIPScore    *float64 `json:"CLIPScore"`
		RefCLIPScore *float64 `json:"RefCLIPScore"`
		Items        []struct {
			ID           string   `json:"id"`
			CLIPScore    *float64 `json:"CLIPScore"`
			RefCLIPScore *float64 `json:"RefCLIPScore"`
		} `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var per map[string]map[string]*float64
	pythonJSON(t, filepath.Join(dir, "per_instance.json"), &per)
	if len(got.Items) != len(per) {
		t.Fatalf("%d items, per_instance.json has %d", len(got.Items), len(per))
	}
	checked := 0
	for _, it := range got.Items {
		w := per[it.ID]
		for key, v := range map[string]*float64{"CLIPScore": it.CLIPScore, "RefCLIPScore": it.RefCLIPScore} {
			if !within(v, w[key]) {
				t.Errorf("%s %s = %v, want %v", it.ID, key, v, w[key])
			}
			checked++
		}
	}
	var expected struct {
		System map[string]float64 `json:"system"`
	}
	pythonJSON(t, filepath.Join(dir, "expected.json"), &expected)
	for key, v := range map[string]*float64{"CLIPScore": got.CLIPScore, "RefCLIPScore": got.RefCLIPScore} {
		w := expected.System[key]
		if !within(v, &w) {
			t.Errorf("system %s = %v, want %v", key, v, w)
		}
		checked++
	}
	t.Logf("per_instance.json and system means: %d values checked through the command", checked)
}

func TestCLIPScoreCommandRejectsBadInput(t *testing.T) {
	dir := e2efixtures.Metric("clipscore")
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "broken.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	cands := filepath.Join(tmp, "cands.json")
	if err := os.WriteFile(cands, []byte(`{"broken": "a caption"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"clipscore", "-cands", cands, "-images", tmp, "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}, "broken.png"},
		{[]string{"clipscore", "-cands", cands, "-images", filepath.Join(dir, "images"), "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}, "no candidate"},
		{[]string{"clipscore", "-cands", filepath.Join(dir, "candidates.json"), "-images", filepath.Join(dir, "images"), "-model", e2efixtures.Metric("clip")}, "-model"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(c.args, &stdout, &stderr); code == 0 {
			t.Errorf("%q: exit 0", c.args)
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: stderr %q lacks %q", c.args, stderr.String(), c.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("partial output %q", stdout.String())
		}
	}
}

func TestCLIPScoreCommandCSV(t *testing.T) {
	dir := e2efixtures.Metric("clipscore")
	var stdout, stderr bytes.Buffer
	args := []string{"clipscore", "-cands", filepath.Join(dir, "candidates.json"), "-images", filepath.Join(dir, "images"),
		"-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir, "-format", "csv"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var per map[string]map[string]*float64
	pythonJSON(t, filepath.Join(dir, "per_instance.json"), &per)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != len(per)+2 || lines[0] != "id,CLIPScore,RefCLIPScore" {
		t.Fatalf("CSV %q", lines)
	}
	for _, line := range lines[1 : len(lines)-1] {
		f := strings.Split(line, ",")
		x, err := strconv.ParseFloat(f[1], 64)
		if err != nil || !within(&x, per[f[0]]["CLIPScore"]) || f[2] != "NaN" {
			t.Errorf("%q: want CLIPScore %v and no RefCLIPScore without -refs", line, per[f[0]]["CLIPScore"])
		}
	}
}
