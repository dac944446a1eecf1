package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestGroovistWarnsOfSkippedImages runs groovist on one story of 13
// images under a 1,000-pixel limit: one 16×16 crop is used, twelve 64×64
// crops are over the limit. The scores stand (the reference skips such
// images); stderr must name the first 10 skipped images, one line each
// with the file's dimensions and the flag to raise, then count the other 2.
func TestGroovistWarnsOfSkippedImages(t *testing.T) {
	dir := t.TempDir()
	crops := filepath.Join(dir, "crops")
	if err := os.Mkdir(crops, 0o755); err != nil {
		t.Fatal(err)
	}
	entities := "image_name,image_id,bbox,object,score\n"
	var ids []string
	for i := range 13 {
		id := fmt.Sprintf("im%02d", i)
		side := 64
		if i == 0 {
			side = 16
		}
		writeBombPNG(t, filepath.Join(crops, id+"_[0.0, 0.0, 1.0, 1.0].jpg"), side, 8, 2)
		entities += fmt.Sprintf("x.jpg,%s,\"[0.0, 0.0, 1.0, 1.0]\",dog,0.9\n", id)
		ids = append(ids, fmt.Sprintf("%q", id))
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := []string{"groovist", "-nps", write("nps.json", `{"s1": ["the dog", "the park"]}`),
		"-entities", write("entities.csv", entities), "-crops", crops, "-dataset", "custom",
		"-sid2iids", write("sid2iids.json", `{"s1": [`+strings.Join(ids, ", ")+`]}`),
		"-max-image-pixels", "1000", "-format", "csv", "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}
	var stdout, stderr bytes.Buffer
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "\ns1,") || !strings.Contains(stdout.String(), ",2,12,") {
		t.Errorf("want a score for s1 with 2 phrases and 12 failed images:\n%s", stdout.String())
	}
	var warnings []string
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if strings.Contains(l, "warning:") {
			warnings = append(warnings, l)
		}
	}
	if len(warnings) != 11 {
		t.Fatalf("%d warning lines, want 10 and a count:\n%s", len(warnings), stderr.String())
	}
	for i, l := range warnings[:10] {
		want := fmt.Sprintf(`storyeval groovist: warning: image "im%02d" skipped in 1 story`, i+1)
		if !strings.HasPrefix(l, want) || !strings.Contains(l, "64x64 pixels exceeds the limit of 1000 pixels (raise the limit with -max-image-pixels)") {
			t.Errorf("warning %d: %q, want %q… naming 64x64 and the flag", i, l, want)
		}
	}
	if want := "storyeval groovist: warning: 2 more images skipped"; !strings.HasPrefix(warnings[10], want) {
		t.Errorf("last warning %q, want %q…", warnings[10], want)
	}
	t.Logf("%s", warnings[0])
}
