package tokenize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// goldenCase is one case of the BERT and ALBERT golden files; CLIP cases
// have their own shape (clipCase).
type goldenCase struct {
	Text          string   `json:"text"`
	TextPair      *string  `json:"text_pair"`
	Pieces        []string `json:"pieces"`
	Tokens        []string `json:"tokens"`
	InputIDs      []int    `json:"input_ids"`
	AttentionMask []int    `json:"attention_mask"`
	TokenTypeIDs  []int    `json:"token_type_ids"`
	MaxLength     int      `json:"max_length"`
	Truncation    string   `json:"truncation"`
	Decoded       *string  `json:"decoded"`
}

type goldenBatch struct {
	Texts         []string `json:"texts"`
	Padding       string   `json:"padding"`
	PadTokenID    int      `json:"pad_token_id"`
	InputIDs      [][]int  `json:"input_ids"`
	AttentionMask [][]int  `json:"attention_mask"`
	TokenTypeIDs  [][]int  `json:"token_type_ids"`
}

type goldenFile struct {
	path      string
	Tokenizer struct {
		Class string `json:"class"`
		Files string `json:"files"`
	} `json:"tokenizer"`
	VocabSize  int             `json:"vocab_size"`
	Single     json.RawMessage `json:"single"`
	Pairs      []goldenCase    `json:"pairs"`
	Truncation []goldenCase    `json:"truncation"`
	Batch      goldenBatch     `json:"batch_padded"`
}

// goldenFiles discovers the tokenizer golden files of the fixture directory.
func goldenFiles(t testing.TB) []goldenFile {
	t.Helper()
	dir := filepath.Join(fixturedir.Dir(), "tokenizers")
	var names []string
	for _, pat := range []string{"*.json", "*.json.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		names = append(names, m...)
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatalf("no tokenizer golden files in %s", dir)
	}
	var out []goldenFile
	for _, path := range names {
		name := strings.TrimSuffix(filepath.Base(path), ".gz")
		data, err := readModelFile(dir, name, 64<<20)
		if err != nil {
			t.Fatal(err)
		}
		g := goldenFile{path: path}
		if err := json.Unmarshal(data, &g); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, g)
	}
	return out
}

// modelDir finds the directory holding the tokenizer files a golden file
// names in its "files" field ("../../bert/vocab.txt (…)" in the shared
// layout, relative to the fixture root once the "../" are dropped;
// "clip_full/vocab.json, …" relative to tokenizers/), falling back to
// tokenizers/<dir name>, where this repository keeps its copy.
func modelDir(t testing.TB, g goldenFile, need string) string {
	t.Helper()
	root := fixturedir.Dir()
	tokdir := filepath.Join(root, "tokenizers")
	first := strings.TrimRight(strings.Fields(g.Tokenizer.Files)[0], ",")
	rel := filepath.Dir(first)
	trimmed := rel
	for strings.HasPrefix(trimmed, "../") {
		trimmed = trimmed[3:]
	}
	for _, d := range []string{
		filepath.Join(tokdir, rel),
		filepath.Join(root, trimmed),
		filepath.Join(tokdir, filepath.Base(rel)),
	} {
		for _, f := range []string{need, need + ".gz"} {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				return d
			}
		}
	}
	t.Fatalf("%s: no %s for files %q", g.path, need, g.Tokenizer.Files)
	return ""
}

// counter tallies identical cases per group for the parity report.
type counter struct {
	t      *testing.T
	name   string
	ok, n  map[string]int
	groups []string
}

func newCounter(t *testing.T, name string) *counter {
	return &counter{t: t, name: name, ok: map[string]int{}, n: map[string]int{}}
}

func (c *counter) check(group, what string, got, want any) {
	c.t.Helper()
	if _, seen := c.n[group]; !seen {
		c.groups = append(c.groups, group)
	}
	c.n[group]++
	if reflect.DeepEqual(got, want) {
		c.ok[group]++
		return
	}
	c.t.Errorf("%s %s %s:\n got %v\nwant %v", c.name, group, what, got, want)
}

func (c *counter) report() {
	var parts []string
	for _, g := range c.groups {
		parts = append(parts, g+" "+itoa(c.ok[g])+"/"+itoa(c.n[g]))
	}
	c.t.Logf("%s parity: %s", c.name, strings.Join(parts, ", "))
}

func itoa(n int) string { return jsonInt(n) }

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// checkWordLevel runs the single/pairs/truncation/batch cases shared by the
// BERT and ALBERT golden files.
func checkWordLevel(t *testing.T, c *counter, g goldenFile, enc Encoder) {
	var single []goldenCase
	if err := json.Unmarshal(g.Single, &single); err != nil {
		t.Fatal(err)
	}
	if len(single) == 0 {
		t.Fatalf("%s: no single cases", g.path)
	}
	if got := enc.VocabSize(); got != g.VocabSize {
		t.Errorf("%s vocab size %d, want %d", c.name, got, g.VocabSize)
	}
	for _, tc := range single {
		q := quote(tc.Text)
		if tc.Pieces != nil {
			c.check("pieces", q, nonNil(enc.Tokenize(tc.Text)), tc.Pieces)
		}
		e := enc.Encode(tc.Text)
		c.check("single", q+" tokens", e.Tokens, tc.Tokens)
		c.check("single", q+" ids", e.IDs, tc.InputIDs)
		c.check("single", q+" mask", e.AttentionMask, tc.AttentionMask)
		c.check("single", q+" types", e.TypeIDs, tc.TokenTypeIDs)
		if tc.Decoded != nil {
			text, err := enc.Decode(e.IDs)
			if err != nil {
				t.Fatal(err)
			}
			c.check("decoded", q, text, *tc.Decoded)
		}
	}
	for _, tc := range g.Pairs {
		q := quote(tc.Text) + "+" + quote(*tc.TextPair)
		e := enc.EncodePair(tc.Text, *tc.TextPair)
		c.check("pairs", q+" tokens", e.Tokens, tc.Tokens)
		c.check("pairs", q+" ids", e.IDs, tc.InputIDs)
		c.check("pairs", q+" mask", e.AttentionMask, tc.AttentionMask)
		c.check("pairs", q+" types", e.TypeIDs, tc.TokenTypeIDs)
	}
	for _, tc := range g.Truncation {
		strategy, err := ParseTruncation(tc.Truncation)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Truncation: strategy, MaxLength: tc.MaxLength}
		var e Encoding
		q := quote(tc.Text) + " " + tc.Truncation
		if tc.TextPair != nil {
			e, err = enc.EncodePairWith(tc.Text, *tc.TextPair, opt)
		} else {
			e, err = enc.EncodeWith(tc.Text, opt)
		}
		if err != nil {
			t.Fatal(err)
		}
		c.check("truncation", q+" ids", e.IDs, tc.InputIDs)
		c.check("truncation", q+" mask", e.AttentionMask, tc.AttentionMask)
		if tc.Tokens != nil {
			c.check("truncation", q+" tokens", e.Tokens, tc.Tokens)
		}
		if tc.TokenTypeIDs != nil {
			c.check("truncation", q+" types", e.TypeIDs, tc.TokenTypeIDs)
		}
	}
	checkBatch(t, c, g.Batch, enc)
}

func checkBatch(t *testing.T, c *counter, b goldenBatch, enc Encoder) {
	if b.Texts == nil {
		return
	}
	if b.Padding != "longest" {
		t.Fatalf("%s: batch padding %q not handled by this test", c.name, b.Padding)
	}
	batch, err := enc.EncodeBatch(b.Texts, Options{Padding: PadLongest})
	if err != nil {
		t.Fatal(err)
	}
	var ids, mask, types [][]int
	for _, e := range batch {
		ids = append(ids, e.IDs)
		mask = append(mask, e.AttentionMask)
		types = append(types, e.TypeIDs)
	}
	c.check("batch", "ids", ids, b.InputIDs)
	c.check("batch", "mask", mask, b.AttentionMask)
	if b.TokenTypeIDs != nil {
		c.check("batch", "types", types, b.TokenTypeIDs)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	if len(b) > 60 {
		return string(b[:57]) + "…"
	}
	return string(b)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestGoldenTokenizers(t *testing.T) {
	for _, g := range goldenFiles(t) {
		class := g.Tokenizer.Class
		switch {
		case strings.HasPrefix(class, "BertTokenizer"):
			tok, err := LoadBERT(modelDir(t, g, "vocab.txt"))
			if err != nil {
				t.Fatal(err)
			}
			c := newCounter(t, "BERT")
			checkWordLevel(t, c, g, tok)
			c.report()
		case strings.HasPrefix(class, "AlbertTokenizer"):
			tok, err := LoadALBERT(modelDir(t, g, "spiece.model"))
			if err != nil {
				t.Fatal(err)
			}
			c := newCounter(t, "ALBERT")
			checkWordLevel(t, c, g, tok)
			c.report()
		case strings.HasPrefix(class, "CLIPTokenizer"):
			checkCLIPGolden(t, "CLIP", g, modelDir(t, g, "vocab.json"))
		default:
			t.Errorf("%s: unknown tokenizer class %q", g.path, class)
		}
	}
}
