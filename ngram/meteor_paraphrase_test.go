package ngram

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// meteorParaCands and meteorParaRefs exercise testdata/meteor_paraphrase_tiny.gz,
// a hand-written table in paraphrase-en.gz format.
var (
	meteorParaCands = map[string]string{
		"p1": "A guy is riding a horse on the beach.",
		"p2": "A dog sits on the couch next to a cat.",
		"p3": "The woman stands before the cooking area.",
		"p4": "A man talks on his mobile beside the sofa.",
		"p5": "a cat is sitting on the sofa in front of a tv",
		"p6": "nothing here matches at all",
	}
	meteorParaRefs = map[string][]string{
		"p1": {"A man on the back of a horse at the beach.", "Someone rides a horse."},
		"p2": {"A dog is sitting on the sofa beside a cat."},
		"p3": {"A woman is standing in front of the kitchen.", "The woman stands before the kitchen."},
		"p4": {"A guy talking on a cell phone next to the couch."},
		"p5": {"A cat sits on the couch before a television."},
		"p6": {"A man on the back of a horse."},
	}
)

// TestMeteorParaphraseStage compares with the jar (-l en -norm -stdio, run
// through pycocoevalcap's protocol) with "-a meteor_paraphrase_tiny.gz" and
// with an empty table.
func TestMeteorParaphraseStage(t *testing.T) {
	cases := []struct {
		name   string
		opts   MeteorOptions
		corpus float64
		items  map[string]float64
	}{
		{"tiny table", MeteorOptions{ParaphraseTable: filepath.Join("testdata", "meteor_paraphrase_tiny.gz")}, 0.3966464420414563,
			map[string]float64{"p1": 0.34677627603860794, "p2": 0.8190476190476189, "p3": 0.9115853658536586,
				"p4": 0.3681726872731376, "p5": 0.4700854846794239, "p6": 0}},
		{"no table", MeteorOptions{}, 0.26276830716836036,
			map[string]float64{"p1": 0.269556323796831, "p2": 0.37519033127365214, "p3": 0.4026058741311546,
				"p4": 0.16738851404201147, "p5": 0.33958091308225224, "p6": 0}},
	}
	for _, c := range cases {
		m, err := NewMeteor(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		corpus, items, err := m.Corpus(meteorParaCands, meteorParaRefs)
		if err != nil {
			t.Fatal(err)
		}
		if corpus != c.corpus {
			t.Errorf("%s: corpus %.17g, want %.17g", c.name, corpus, c.corpus)
		}
		for id, want := range c.items {
			if items[id] != want {
				t.Errorf("%s: item %s %.17g, want %.17g", c.name, id, items[id], want)
			}
		}
	}
	// The jar's statistics for p2 with the table: one paraphrase match of
	// "next to" / "beside" (stage 4) in two chunks.
	m, err := NewMeteor(cases[0].opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Score(meteorParaCands["p2"], meteorParaRefs["p2"])
	if err != nil {
		t.Fatal(err)
	}
	const want = "11.0 11.0 6.0 6.0 2.0 2.0 4.0 4.0 0.0 0.0 0.0 0.0 1.0 1.0 0.0 0.0 2.0 2.0 2.0 2.0 1.0 11.0 11.0"
	if s.String() != want {
		t.Errorf("p2 stats %s, want %s", s.String(), want)
	}
}

func meteorGzip(t *testing.T, text string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(text))
	zw.Close()
	return buf.Bytes()
}

func TestMeteorParaphraseTableErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, path string
		limit      int64
		wantErr    string
	}{
		{"missing", filepath.Join(dir, "absent.gz"), 0, "absent.gz"},
		{"not gzip", write("plain.gz", []byte("0.5\na\nb\n")), 0, "gzip"},
		{"cut short", write("short.gz", meteorGzip(t, "0.5\na man\n")), 0, "line 2: entry cut short"},
		{"empty phrase", write("empty.gz", meteorGzip(t, "0.5\n\nb\n")), 0, "line 3: empty phrase"},
		{"over limit", write("big.gz", meteorGzip(t, strings.Repeat("0.5\na\nb\n", 100))), 50, "exceeds the limit"},
	}
	for _, c := range cases {
		_, err := NewMeteor(MeteorOptions{ParaphraseTable: c.path, ParaphraseLimit: c.limit})
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		}
	}
	// An empty table is valid and scores as no table.
	m, err := NewMeteor(MeteorOptions{ParaphraseTable: write("none.gz", meteorGzip(t, ""))})
	if err != nil {
		t.Fatal(err)
	}
	m0, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cand, refs := meteorParaCands["p2"], meteorParaRefs["p2"]
	s, _ := m.Score(cand, refs)
	s0, _ := m0.Score(cand, refs)
	if s != s0 {
		t.Errorf("empty table: %+v, without table %+v", s, s0)
	}
}

// TestMeteorParaphraseLineEnds: \r\n and \r end lines as in Java's readLine.
func TestMeteorParaphraseLineEnds(t *testing.T) {
	for _, text := range []string{"0.5\r\na man\r\na guy\r\n", "0.5\ra man\ra guy", "0.5\na man\na guy"} {
		p, err := readMeteorParaphrases(bytes.NewReader(meteorGzip(t, text)), 1<<20)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got := p.paths([]int32{p.translate("a"), p.translate("man")}, 0, nil)
		if len(p.paraphrases) != 1 || len(got) != 2 || got[0] != 2 || len(p.paraphrases[got[1]]) != 2 {
			t.Errorf("%q: %d paraphrases, paths %v", text, len(p.paraphrases), got)
		}
	}
}

// TestParaphraseTableStopsADecompressionBomb reads 64 MiB of one valid
// entry repeated (about 64 KB gzipped) under a limit that allows them: the
// ratio bound must stop the reader after a few megabytes.
func TestParaphraseTableStopsADecompressionBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := bytes.Repeat([]byte("0.5\nbig dog\nlarge dog\n"), (1<<20)/24)
	for range 64 {
		zw.Write(chunk)
	}
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readMeteorParaphrases(&buf, 1<<40)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "decompression bomb") {
		t.Fatalf("err = %v, want a decompression-bomb error", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
		t.Errorf("allocated %d MB before failing, want at most 128 MB", alloc>>20)
	}
}
