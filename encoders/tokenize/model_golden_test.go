package tokenize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
	"github.com/storyeval/storyeval/internal/npy"
)

// modelIndex is the part of a model's golden/index.json that says which
// texts produced its input arrays.
type modelIndex struct {
	Family     string                     `json:"family"`
	InputsFrom map[string]json.RawMessage `json:"inputs_from"`
	Arrays     map[string]struct {
		File string `json:"file"`
	} `json:"arrays"`
}

// textInputs is one group of inputs_from: texts, or text/text_pair pairs,
// with tokenizer options of its own when the generator recorded them.
type textInputs struct {
	Texts    []string `json:"texts"`
	Text     []string `json:"text"`
	TextPair []string `json:"text_pair"`
	encodeOptions
}

// encodeOptions are the tokenizer call options a golden index records, at
// its top level (text_padding, max_length, truncation) or in an
// inputs_from group (padding, max_length, truncation). Absent, they are
// HF's tokenizer(texts, padding="longest") without truncation.
type encodeOptions struct {
	Padding     string          `json:"padding"`
	TextPadding string          `json:"text_padding"`
	MaxLength   int             `json:"max_length"`
	Truncation  json.RawMessage `json:"truncation"`
}

// over returns o with the fields group sets replacing o's.
func (o encodeOptions) over(group encodeOptions) encodeOptions {
	if group.Padding != "" || group.TextPadding != "" {
		o.Padding, o.TextPadding = group.Padding, group.TextPadding
	}
	if group.MaxLength != 0 {
		o.MaxLength = group.MaxLength
	}
	if group.Truncation != nil {
		o.Truncation = group.Truncation
	}
	return o
}

// options maps the recorded HF arguments to Options.
func (o encodeOptions) options(t *testing.T, where string) Options {
	t.Helper()
	opts := Options{MaxLength: o.MaxLength}
	padding := o.Padding
	if padding == "" {
		padding = o.TextPadding
	}
	switch padding {
	case "", "longest", "true":
		opts.Padding = PadLongest
	case "max_length":
		opts.Padding = PadMaxLength
	case "do_not_pad", "false":
		opts.Padding = NoPadding
	default:
		t.Fatalf("%s: unknown padding %q", where, padding)
	}
	var trunc any
	if o.Truncation != nil {
		if err := json.Unmarshal(o.Truncation, &trunc); err != nil {
			t.Fatalf("%s: truncation %s: %v", where, o.Truncation, err)
		}
	}
	switch v := trunc.(type) {
	case nil:
	case bool:
		if v {
			opts.Truncation = LongestFirst
		}
	case string:
		tr, err := ParseTruncation(v)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		opts.Truncation = tr
	default:
		t.Fatalf("%s: truncation %s", where, o.Truncation)
	}
	return opts
}

// hasFile reports whether dir holds name or name.gz.
func hasFile(dir, name string) bool {
	for _, f := range []string{name, name + ".gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// modelTokenizer loads the tokenizer of a fixture model: from the model's own
// directory when it holds the tokenizer files, else from this repository's
// copy under tokenizers/models/<model>, else (BERT, ALBERT) the real
// tokenizer of the family the tokenizer goldens use.
func modelTokenizer(t *testing.T, root, model, family string) Encoder {
	t.Helper()
	need := map[string]string{"bert": "vocab.txt", "albert": "spiece.model", "clip": "vocab.json"}[family]
	for _, dir := range []string{filepath.Join(root, model), filepath.Join(root, "tokenizers", "models", model)} {
		if !hasFile(dir, need) {
			continue
		}
		var enc Encoder
		var err error
		switch family {
		case "bert":
			enc, err = LoadBERT(dir)
		case "albert":
			enc, err = LoadALBERT(dir)
		case "clip":
			enc, err = LoadCLIP(dir, CLIPOptions{Cleaner: CleanHF})
		}
		if err != nil {
			t.Fatal(err)
		}
		return enc
	}
	bert, albert, _ := loadTestTokenizers(t)
	switch family {
	case "bert":
		return bert
	case "albert":
		return albert
	}
	t.Fatalf("no tokenizer files for fixture model %s", model)
	return nil
}

// TestModelInputGoldens re-creates the input_ids, attention_mask and
// token_type_ids arrays of every fixture model from the texts its golden
// index names, with the padding, max_length and truncation the index
// records (HF tokenizer(texts, padding="longest") when it records none), and
// runs the tiny CLIP model's own tokenizer golden file.
func TestModelInputGoldens(t *testing.T) {
	root := fixturedir.Dir()
	indexes, _ := filepath.Glob(filepath.Join(root, "*", "golden", "index.json"))
	sort.Strings(indexes)
	checked := 0
	for _, path := range indexes {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var idx modelIndex
		if err := json.Unmarshal(data, &idx); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var top encodeOptions
		if err := json.Unmarshal(data, &top); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if idx.Family != "bert" && idx.Family != "albert" && idx.Family != "clip" {
			continue
		}
		goldenDir := filepath.Dir(path)
		model := filepath.Base(filepath.Dir(goldenDir))
		c := newCounter(t, model+" model inputs")
		var enc Encoder
		for key, raw := range idx.InputsFrom {
			var in textInputs
			if key == "texts" {
				key = ""
				if json.Unmarshal(raw, &in.Texts) != nil {
					continue
				}
			} else if json.Unmarshal(raw, &in) != nil {
				continue // not a text input ("images_": "…")
			}
			if in.Texts == nil && in.Text == nil {
				continue
			}
			if enc == nil {
				enc = modelTokenizer(t, root, model, idx.Family)
			}
			opts := top.over(in.encodeOptions).options(t, path)
			var batch []Encoding
			if in.Texts != nil {
				batch, err = enc.EncodeBatch(in.Texts, opts)
			} else {
				batch, err = enc.EncodePairBatch(in.Text, in.TextPair, opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			fields := map[string]func(Encoding) []int{
				"input_ids":      func(e Encoding) []int { return e.IDs },
				"attention_mask": func(e Encoding) []int { return e.AttentionMask },
				"token_type_ids": func(e Encoding) []int { return e.TypeIDs },
			}
			for name, get := range fields {
				arr, ok := idx.Arrays[key+name]
				if !ok {
					continue
				}
				want := readIntArray(t, filepath.Join(goldenDir, arr.File))
				var got [][]int
				for _, e := range batch {
					got = append(got, get(e))
				}
				c.check(key+name, "", got, want)
				checked++
			}
		}
		if len(c.groups) > 0 {
			c.report()
		}
		// The tiny CLIP model ships its own tokenizer golden file.
		if name := filepath.Join(goldenDir, "tokenizer_goldens.json"); hasFile(goldenDir, "tokenizer_goldens.json") {
			data, err := readModelFile(goldenDir, "tokenizer_goldens.json", 64<<20)
			if err != nil {
				t.Fatal(err)
			}
			g := goldenFile{path: name}
			if err := json.Unmarshal(data, &g); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			dir := filepath.Join(root, model)
			if !hasFile(dir, "vocab.json") {
				dir = filepath.Join(root, "tokenizers", "models", model)
			}
			checkCLIPGolden(t, model+" tokenizer", g, dir)
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no model input arrays found under %s", root)
	}
}

// readIntArray reads an int64 .npy (or .npy.gz) golden as rows of ints.
func readIntArray(t *testing.T, path string) [][]int {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		path += ".gz"
	}
	a, err := npy.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Shape) != 2 || a.I64 == nil {
		t.Fatalf("%s: want a 2-D integer array, got shape %v dtype %s", path, a.Shape, a.DType)
	}
	rows := make([][]int, a.Shape[0])
	for i := range rows {
		rows[i] = make([]int, a.Shape[1])
		for j := range rows[i] {
			rows[i][j] = int(a.I64[i*a.Shape[1]+j])
		}
	}
	return rows
}
