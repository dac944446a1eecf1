package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// clipModelFlags are -model and -tokenizer of the commands that score
// with CLIP (clipscore, groovist).
type clipModelFlags struct{ model, tokenizer *string }

// addCLIPModelFlags defines -model and -tokenizer on fs.
func addCLIPModelFlags(fs *flag.FlagSet) clipModelFlags {
	return clipModelFlags{
		model:     fs.String("model", "", "HuggingFace CLIP folder (config.json + weights) (required)"),
		tokenizer: fs.String("tokenizer", "", "folder with CLIP's vocab.json and merges.txt (default: -model)"),
	}
}

// load loads the model and tokenizer the flags name (see loadCLIPModel)
// onto the CPU.
func (f clipModelFlags) load() (*encoders.CLIP, *tokenize.CLIP, error) {
	return f.loadOn(encoders.Options{})
}

// loadOn is load onto the backend o chooses (-device).
func (f clipModelFlags) loadOn(o encoders.Options) (*encoders.CLIP, *tokenize.CLIP, error) {
	return loadCLIPModel(*f.model, *f.tokenizer, o)
}

// loadCLIPModel loads the CLIP model of -model and the BPE vocabulary of
// -tokenizer (the model folder when empty), naming the flag that supplies
// a missing file.
func loadCLIPModel(modelDir, tokDir string, o encoders.Options) (*encoders.CLIP, *tokenize.CLIP, error) {
	if modelDir == "" {
		return nil, nil, fmt.Errorf("-model is required: a HuggingFace CLIP folder (config.json and model.safetensors or pytorch_model.bin)")
	}
	if _, err := os.Stat(filepath.Join(modelDir, "config.json")); err != nil {
		return nil, nil, fmt.Errorf("-model %s: no config.json (a HuggingFace CLIP folder is needed): %w", modelDir, err)
	}
	m, err := encoders.LoadCLIP(modelDir, o)
	if err != nil {
		return nil, nil, fmt.Errorf("-model %s: %w", modelDir, err)
	}
	which := "-tokenizer"
	if tokDir == "" {
		tokDir, which = modelDir, "-model"
	}
	if !hasAny(tokDir, "vocab.json", "vocab.json.gz") || !hasAny(tokDir, "merges.txt", "merges.txt.gz") {
		_ = m.Close()
		return nil, nil, fmt.Errorf("%s %s: no vocab.json and merges.txt (CLIP's BPE vocabulary; pass the folder that has them with -tokenizer)", which, tokDir)
	}
	tok, err := tokenize.LoadCLIP(tokDir, tokenize.CLIPOptions{})
	if err != nil {
		_ = m.Close()
		return nil, nil, fmt.Errorf("%s %s: %w", which, tokDir, err)
	}
	return m, tok, nil
}

func hasAny(dir string, names ...string) bool {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}
