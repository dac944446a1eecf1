package tokenize

import (
	"encoding/json"
	"testing"
)

// clipCase is one case of the CLIP golden file: the same text through HF
// with and without ftfy and through OpenAI's tokenizer.
type clipCase struct {
	Text   string `json:"text"`
	HFFtfy struct {
		Pieces          []string `json:"pieces"`
		InputIDs        []int    `json:"input_ids"`
		AttentionMask   []int    `json:"attention_mask"`
		InputIDs77      []int    `json:"input_ids_77"`
		AttentionMask77 []int    `json:"attention_mask_77"`
		Decoded         *string  `json:"decoded"`
	} `json:"hf_ftfy"`
	HFNoFtfy struct {
		Pieces   []string `json:"pieces"`
		InputIDs []int    `json:"input_ids"`
	} `json:"hf_no_ftfy"`
	OpenAI struct {
		InputIDs       []int `json:"input_ids"`
		ClipTokenize77 []int `json:"clip_tokenize_77"`
	} `json:"openai"`
}

func checkCLIPGolden(t *testing.T, name string, g goldenFile, dir string) {
	var cases []clipCase
	if err := json.Unmarshal(g.Single, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", g.path)
	}
	load := func(c CLIPCleaner) *CLIP {
		tok, err := LoadCLIP(dir, CLIPOptions{Cleaner: c})
		if err != nil {
			t.Fatal(err)
		}
		if tok.VocabSize() != g.VocabSize {
			t.Errorf("CLIP vocab size %d, want %d", tok.VocabSize(), g.VocabSize)
		}
		return tok
	}
	openai, hf, noftfy := load(CleanOpenAI), load(CleanHF), load(CleanHFNoFTFY)
	c := newCounter(t, name)
	pad77 := Options{Truncation: LongestFirst, MaxLength: 77, Padding: PadMaxLength}
	for _, tc := range cases {
		q := quote(tc.Text)
		c.check("hf_ftfy", q+" pieces", nonNil(hf.Tokenize(tc.Text)), tc.HFFtfy.Pieces)
		e := hf.Encode(tc.Text)
		c.check("hf_ftfy", q+" ids", e.IDs, tc.HFFtfy.InputIDs)
		c.check("hf_ftfy", q+" mask", e.AttentionMask, tc.HFFtfy.AttentionMask)
		if tc.HFFtfy.Decoded != nil {
			text, err := hf.Decode(e.IDs)
			if err != nil {
				t.Fatal(err)
			}
			c.check("decoded", q, text, *tc.HFFtfy.Decoded)
		}
		b, err := hf.EncodeBatch([]string{tc.Text}, pad77)
		if err != nil {
			t.Fatal(err)
		}
		c.check("hf_ftfy_77", q+" ids", b[0].IDs, tc.HFFtfy.InputIDs77)
		c.check("hf_ftfy_77", q+" mask", b[0].AttentionMask, tc.HFFtfy.AttentionMask77)
		c.check("hf_no_ftfy", q+" pieces", nonNil(noftfy.Tokenize(tc.Text)), tc.HFNoFtfy.Pieces)
		c.check("hf_no_ftfy", q+" ids", noftfy.Encode(tc.Text).IDs, tc.HFNoFtfy.InputIDs)
		if tc.OpenAI.InputIDs == nil {
			continue // the tiny model's golden has no OpenAI outputs
		}
		c.check("openai", q+" ids", openai.Encode(tc.Text).IDs, tc.OpenAI.InputIDs)
		ids, err := openai.OpenAITokenize([]string{tc.Text}, 77, true)
		if err != nil {
			t.Fatal(err)
		}
		c.check("openai_77", q+" ids", ids[0], tc.OpenAI.ClipTokenize77)
	}
	checkBatch(t, c, g.Batch, hf)
	c.report()
}
