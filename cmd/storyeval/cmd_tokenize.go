package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/story"
)

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
	if err := parseRequired(fs, args, nil, "family", "model", "texts"); err != nil {
		return err
	}
	opt := tokenize.Options{MaxLength: *maxLength}
	var clip tokenize.CLIPOptions
	var errT, errP, errC error
	opt.Truncation, errT = tokenize.ParseTruncation(*truncation)
	opt.Padding, errP = tokenize.PaddingByName(*padding)
	clip.Cleaner, errC = tokenize.CLIPCleanerByName(*cleaner)
	if err := cmp.Or(errT, flagError("padding", errP), flagError("clip-cleaner", errC),
		errIf(!slices.Contains(tokenize.Families(), *family), "unknown -family %q (want bert, albert or clip)", *family)); err != nil {
		return err
	}
	enc, err := tokenize.LoadFamily(*family, *model, clip)
	if err != nil {
		return err
	}
	// Padding to the longest text of the whole file needs that text first:
	// a first pass finds it, and each batch is padded to it.
	var longest *string
	if opt.Padding == tokenize.PadLongest {
		var l tokenize.Longest
		if err := story.EachBatchFile(*textsPath, storyRead, storyBatch, func(b []story.Story) error {
			return l.Add(enc, story.IDs(b), story.Texts(b), opt)
		}); err != nil {
			return err
		}
		longest = &l.Text
	}
	return story.WriteJSONLinesFile(stdout, *textsPath, storyRead, storyBatch, func(batch []story.Story) ([]tokenize.IDEncoding, error) {
		lines, err := tokenize.EncodeIDs(enc, story.IDs(batch), story.Texts(batch), opt, longest)
		if ts := (*tokenize.TooShortError)(nil); errors.As(err, &ts) {
			return lines, fmt.Errorf("text %q: -max-length %d is too short to truncate to: %d tokens remain after %s truncation (the special tokens alone may need more)", ts.ID, *maxLength, ts.Len, *truncation)
		}
		return lines, err
	})
}
