package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// gzipRepeat returns a gzip stream of n copies of byte b.
func gzipRepeat(t *testing.T, b byte, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := bytes.Repeat([]byte{b}, 1<<20)
	for ; n > 0; n -= len(chunk) {
		zw.Write(chunk[:min(n, len(chunk))])
	}
	zw.Close()
	return buf.Bytes()
}

// TestHostileInputsFailClearlyInBoundedMemory runs the storyeval command,
// as a child process, on each hostile input of issue 17 that the
// subcommands here own, and checks that each fails with exit status 1, a
// message that says what is wrong (and no panic), and a peak RSS far below
// what the input would expand to.
func TestHostileInputsFailClearlyInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a process per input")
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zeros := gzipRepeat(t, 0, 256<<20) // 256 MiB of zeros in about 256 KB
	bombTable := write("bomb.tbl", append([]byte("STYLEMTB\x01\x00"), zeros...))
	// Blank lines, which the JSONL reader skips, so only the bound stops it.
	bombJSONL := write("bomb.jsonl.gz", gzipRepeat(t, '\n', 256<<20))
	bombCSV := write("bomb.csv.gz", zeros)
	null := write("null.json", []byte("null\n"))
	empty := write("empty.json", nil)
	dupCorpus := write("dup.json", []byte(`{"cands": {"a": "x y", "a": "y z"}, "refs": {"a": ["x y"]}}`))
	dupStories := write("dupstories.json", []byte(`{"s": "One. Two.", "s": "Three."}`))
	corpus := "samples/corpus.json"
	stories := "samples/stories.json"
	table := filepath.Join(dir, "sample.stylem")
	if r := runProcess(t, nil, "stylem", "build", "-in", "samples/stylem_corpus.jsonl", "-out", table); r.code != 0 {
		t.Fatalf("stylem build: %s", r.stderr)
	}
	emptyCaptions := write("empty.jsonl", nil)

	for _, tc := range []struct {
		name string
		args []string
		want string // in the message
	}{
		{"stylem table bomb", []string{"stylem", "score", "-table", bombTable, "-in", "samples/stylem_captions.jsonl"}, "decompression bomb"},
		{"stylem corpus bomb", []string{"stylem", "build", "-in", bombJSONL, "-out", filepath.Join(dir, "x.tbl")}, "decompression bomb"},
		{"correlate csv bomb", []string{"correlate", "-in", bombCSV, "-x", "a", "-y", "b"}, "decompression bomb"},
		{"ngram duplicate id", []string{"ngram", "-in", dupCorpus}, `candidate id "a" appears twice`},
		{"sacrebleu duplicate id", []string{"sacrebleu", "-in", dupCorpus}, `candidate id "a" appears twice`},
		{"nr duplicate id", []string{"nr", "-stories", dupStories}, `"s" appears twice`},
		{"ngram null file", []string{"ngram", "-in", null}, "got null"},
		{"ngram empty file", []string{"ngram", "-in", empty}, "empty"},
		{"sacrebleu null file", []string{"sacrebleu", "-in", null}, "got null"},
		{"nr null file", []string{"nr", "-stories", null}, "null"},
		{"nouns empty file", []string{"nouns", "-stories", empty}, "empty"},
		{"tokens null file", []string{"tokens", "-stories", null}, "null"},
		{"stylem score empty file", []string{"stylem", "score", "-table", table, "-in", emptyCaptions}, "no captions to score"},
		{"flag after a file name", []string{"checkpoint", "../../testdata/e2e/vrank/model/model.safetensors", "-stats"}, "flags go before positional arguments"},
		{"flag after an argument", []string{"ngram", "-in", corpus, "extra", "-metrics", "bleu"}, "flags go before positional arguments"},
		{"stray argument", []string{"nr", "-stories", stories, "more.json"}, "takes no positional arguments"},
		{"confidence 0", []string{"correlate", "-bootstrap", "10", "-confidence", "0", "-in", "samples/scores.csv", "-x", "human", "-y", "metric"}, "-confidence 0"},
		{"format", []string{"ngram", "-format", "xml", "-in", corpus}, "want json or csv"},
		{"tokenize max-length 1", []string{"tokenize", "-max-length", "1", "-truncation", "longest_first", "-family", "bert", "-model", "../../testdata/e2e/vrank/model", "-texts", stories}, "too short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runProcess(t, nil, tc.args...)
			msg := string(r.stderr)
			if r.code != 1 {
				t.Errorf("exit status %d, want 1; stderr:\n%s", r.code, msg)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("message %q does not say %q", msg, tc.want)
			}
			if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") {
				t.Errorf("panicked:\n%s", msg)
			}
			// One prefix: the subcommand's, once; library package names
			// are not repeated in front of the message.
			if strings.Count(msg, "storyeval") != 1 || strings.Contains(msg, ": ngram: ") || strings.Contains(msg, ": stylem: ") {
				t.Errorf("message repeats prefixes: %q", msg)
			}
			if r.peakRSS == 0 && runtime.GOOS == "linux" {
				t.Error("no peak RSS measured")
			}
			if r.peakRSS > 200<<20 {
				t.Errorf("peak RSS %d MB, want at most 200 MB", r.peakRSS>>20)
			}
			t.Logf("%s: %.0f ms, peak RSS %d MB: %s", tc.name, r.wall.Seconds()*1000, r.peakRSS>>20, strings.TrimSpace(msg))
		})
	}
}
