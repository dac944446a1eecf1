package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gunzipTo writes the gzipped file src to dir and returns the new path.
func gunzipTo(t *testing.T, src, dir string) string {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".gz"))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readGoldenGz(t *testing.T, path string, v any) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(gunzipTo(t, path, dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func TestNgramCommandReproducesToolkit(t *testing.T) {
	in := gunzipTo(t, "../../ngram/testdata/captions_small.json.gz", t.TempDir())
	var gold struct {
		Modes map[string]struct {
			Tokenized map[string]json.RawMessage    `json:"tokenized"`
			Corpus    map[string]float64            `json:"corpus"`
			Items     map[string]map[string]float64 `json:"items"`
		} `json:"modes"`
	}
	readGoldenGz(t, "../../ngram/testdata/captions_small.coco.json.gz", &gold)
	for _, mode := range []string{"ptb", "raw"} {
		tokenize := map[string]string{"ptb": "ptb", "raw": "none"}[mode]
		var stdout, stderr bytes.Buffer
		if code := runMain([]string{"ngram", "-in", in, "-tokenize", tokenize}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var got struct {
			Corpus    map[string]float64            `json:"corpus"`
			Items     map[string]map[string]float64 `json:"items"`
			Tokenized *struct {
				Cands map[string]string `json:"cands"`
			} `json:"tokenized"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", mode, err, stdout.String())
		}
		g := gold.Modes[mode]
		for _, key := range []string{"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"} {
			if w := g.Corpus[key]; math.Abs(got.Corpus[key]-w) > 1e-12*math.Abs(w) {
				t.Errorf("%s corpus %s = %v, want %v", mode, key, got.Corpus[key], w)
			}
			for id, item := range g.Items {
				if w := item[key]; math.Abs(got.Items[id][key]-w) > 1e-12*math.Abs(w) {
					t.Errorf("%s item %s %s = %v, want %v", mode, id, key, got.Items[id][key], w)
				}
			}
		}
		if (got.Tokenized != nil) != (mode == "ptb") {
			t.Errorf("%s: tokenized present = %v", mode, got.Tokenized != nil)
		}
		if mode == "ptb" {
			var want map[string]string
			json.Unmarshal(g.Tokenized["cands"], &want)
			for id, w := range want {
				if got.Tokenized.Cands[id] != w {
					t.Errorf("tokenized %s = %q, want %q", id, got.Tokenized.Cands[id], w)
				}
			}
		}
	}
}

func TestSacreBLEUCommand(t *testing.T) {
	in := gunzipTo(t, "../../ngram/testdata/captions_small.json.gz", t.TempDir())
	var gold struct {
		Modes map[string]struct {
			Corpus map[string]float64            `json:"corpus"`
			Items  map[string]map[string]float64 `json:"items"`
		} `json:"modes"`
	}
	readGoldenGz(t, "../../ngram/testdata/captions_small.sacrebleu.json.gz", &gold)
	for mode, args := range map[string][]string{"raw": nil, "raw_lc": {"-lowercase"}} {
		var stdout, stderr bytes.Buffer
		if code := runMain(append([]string{"sacrebleu", "-in", in}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var got struct {
			Corpus map[string]float64            `json:"corpus"`
			Items  map[string]map[string]float64 `json:"items"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		g := gold.Modes[mode]
		if w := g.Corpus["BLEU"]; math.Abs(got.Corpus["BLEU"]-w) > 1e-9*w {
			t.Errorf("%s score = %v, want %v", mode, got.Corpus["BLEU"], w)
		}
		for id, item := range g.Items {
			if w := item["BLEU"]; math.Abs(got.Items[id]["BLEU"]-w) > 1e-9*math.Max(w, 1) {
				t.Errorf("%s item %s = %v, want %v", mode, id, got.Items[id]["BLEU"], w)
			}
		}
	}
}

func TestNgramCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"malformed.json":  `{"cands": {"1": "a"`,
		"noref.json":      `{"cands": {"1": "a dog"}, "refs": {}}`,
		"notstring.json":  `{"cands": {"1": 3}, "refs": {"1": ["a"]}}`,
		"unknownkey.json": `{"cands": {"1": "a"}, "refs": {"1": ["a"]}, "extra": 1}`,
	}
	for name, body := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		for _, sub := range []string{"ngram", "sacrebleu"} {
			var stdout, stderr bytes.Buffer
			code := runMain([]string{sub, "-in", path}, &stdout, &stderr)
			if code == 0 {
				t.Errorf("%s %s: exit 0, want failure", sub, name)
			}
			if !strings.Contains(stderr.String(), name) {
				t.Errorf("%s %s: message %q does not name the file", sub, name, stderr.String())
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"ngram", "-in", filepath.Join(dir, "noref.json"), "-metrics", "bleu,nope"}, &stdout, &stderr); code == 0 {
		t.Error("unknown metric accepted")
	}
}

func TestUsageListsSubcommands(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-h exit %d", code)
	}
	for _, sub := range []string{"ngram", "sacrebleu"} {
		if !strings.Contains(stderr.String(), sub) {
			t.Errorf("usage does not list %q:\n%s", sub, stderr.String())
		}
	}
	if code := runMain([]string{"nosuch"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown subcommand exit %d, want 2", code)
	}
}
