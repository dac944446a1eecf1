package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// loadCLIPModel loads the CLIP model of -model and the BPE vocabulary of
// -tokenizer (the model folder when empty), naming the flag that supplies
// a missing file.
func loadCLIPModel(modelDir, tokDir string) (*encoders.CLIP, *tokenize.CLIP, error) {
	if modelDir == "" {
		return nil, nil, fmt.Errorf("-model is required: a HuggingFace CLIP folder (config.json and model.safetensors or pytorch_model.bin)")
	}
	if _, err := os.Stat(filepath.Join(modelDir, "config.json")); err != nil {
		return nil, nil, fmt.Errorf("-model %s: no config.json (a HuggingFace CLIP folder is needed): %w", modelDir, err)
	}
	m, err := encoders.LoadCLIP(modelDir)
	if err != nil {
		return nil, nil, fmt.Errorf("-model %s: %w", modelDir, err)
	}
	flag := "-tokenizer"
	if tokDir == "" {
		tokDir, flag = modelDir, "-model"
	}
	if !hasAny(tokDir, "vocab.json", "vocab.json.gz") || !hasAny(tokDir, "merges.txt", "merges.txt.gz") {
		return nil, nil, fmt.Errorf("%s %s: no vocab.json and merges.txt (CLIP's BPE vocabulary; pass the folder that has them with -tokenizer)", flag, tokDir)
	}
	tok, err := tokenize.LoadCLIP(tokDir, tokenize.CLIPOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", flag, tokDir, err)
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
