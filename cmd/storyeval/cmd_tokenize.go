package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "tokenize",
		summary: "BERT WordPiece, ALBERT SentencePiece or CLIP BPE model inputs of each text, as JSON lines",
		run:     runTokenize,
	})
}

// tokenizeLine is one output line of the tokenize subcommand; field order is
// output order.
type tokenizeLine struct {
	ID            string   `json:"id"`
	Tokens        []string `json:"tokens"`
	InputIDs      []int    `json:"input_ids"`
	AttentionMask []int    `json:"attention_mask"`
	TokenTypeIDs  []int    `json:"token_type_ids"`
}

func runTokenize(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tokenize", stderr)
	family := fs.String("family", "", "tokenizer family: bert, albert or clip (required)")
	model := fs.String("model", "", "HuggingFace model directory with the tokenizer files (required)")
	textsPath := fs.String("texts", "", "JSON file {id: text} (required)")
	maxLength := fs.Int("max-length", 0, "truncation / max_length padding length (0: the model's model_max_length)")
	truncation := fs.String("truncation", "do_not_truncate", "longest_first, only_first, only_second or do_not_truncate")
	padding := fs.String("padding", "none", "none, longest or max_length (over all texts of the file)")
	cleaner := fs.String("clip-cleaner", "openai", "CLIP text cleaning: openai, hf or hf-noftfy")
	setUsage(fs,
		"usage: storyeval tokenize [flags] -family bert|albert|clip -model DIR -texts FILE.json",
		"\nPrints one JSON object per text, in the input's order, as HuggingFace's tokenizer(...) returns it:",
		`{"id": ..., "tokens": [...], "input_ids": [...], "attention_mask": [...], "token_type_ids": [...]}`,
		streamedNote,
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "family", "model", "texts"); err != nil {
		return err
	}
	opt := tokenize.Options{MaxLength: *maxLength}
	var err error
	if opt.Truncation, err = tokenize.ParseTruncation(*truncation); err != nil {
		return err
	}
	if opt.Padding, err = tokenize.PaddingByName(*padding); err != nil {
		return fmt.Errorf("-padding: %w", err)
	}
	var clip tokenize.CLIPOptions
	if clip.Cleaner, err = tokenize.CLIPCleanerByName(*cleaner); err != nil {
		return fmt.Errorf("-clip-cleaner: %w", err)
	}
	if !slices.Contains(tokenize.Families(), *family) {
		return fmt.Errorf("unknown -family %q (want bert, albert or clip)", *family)
	}
	enc, err := tokenize.LoadFamily(*family, *model, clip)
	if err != nil {
		return err
	}
	// The texts are encoded and printed a batch at a time. Padding to the
	// longest text of the whole file needs that text first: a first pass
	// finds it, and the second pads each batch to it by encoding it along
	// (dropping its line), so the output is what one batch of every text
	// gives.
	var longest *string
	if opt.Padding == tokenize.PadLongest {
		if longest, err = longestText(enc, *textsPath, opt); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	out := json.NewEncoder(bw)
	out.SetEscapeHTML(false)
	var encs []tokenize.Encoding
	err = eachStoryBatch(*textsPath, func(batch []story.Story) error {
		encs = slices.Grow(encs[:0], len(batch))[:len(batch)]
		// The tokenizers are safe for concurrent use: each worker encodes
		// a slice of the batch (padded to the file's longest text, which
		// it encodes along, when -padding longest).
		errs := make([]error, parallel.Workers(len(batch), 64))
		parallel.Chunks(len(batch), 64, func(w, lo, hi int) {
			texts := make([]string, 0, hi-lo+1)
			for _, st := range batch[lo:hi] {
				texts = append(texts, st.Text)
			}
			if longest != nil {
				texts = append(texts, *longest)
			}
			var e []tokenize.Encoding
			e, errs[w] = enc.EncodeBatch(texts, opt)
			copy(encs[lo:hi], e)
		})
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		for i, st := range batch {
			e := encs[i]
			if *maxLength > 0 && opt.Truncation != tokenize.NoTruncation && len(e.IDs) > *maxLength {
				// HF's tokenizer, asked to truncate below the special
				// tokens' length, logs an error and returns the text
				// untruncated; say so rather than print over-long output
				// without a word.
				return fmt.Errorf("text %q: -max-length %d is too short to truncate to: %d tokens remain after %s truncation (the special tokens alone may need more)", st.ID, *maxLength, len(e.IDs), *truncation)
			}
			line := tokenizeLine{ID: st.ID, Tokens: e.Tokens, InputIDs: e.IDs, AttentionMask: e.AttentionMask, TokenTypeIDs: e.TypeIDs}
			if err := out.Encode(line); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// longestText returns the text of the file whose encoding (truncated as opt
// says, unpadded) is the longest, the first of them on a tie.
func longestText(enc tokenize.Encoder, path string, opt tokenize.Options) (*string, error) {
	opt.Padding = tokenize.NoPadding
	var longest string
	n := -1
	err := eachStoryBatch(path, func(batch []story.Story) error {
		for _, st := range batch {
			e, err := enc.EncodeWith(st.Text, opt)
			if err != nil {
				return fmt.Errorf("text %q: %w", st.ID, err)
			}
			if e.Len() > n {
				longest, n = st.Text, e.Len()
			}
		}
		return nil
	})
	return &longest, err
}
