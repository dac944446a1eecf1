package groovist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// ErrNoVocabulary is a tokenizer folder without CLIP's BPE vocabulary
// (vocab.json and merges.txt, plain or .gz).
var ErrNoVocabulary = errors.New("no vocab.json and merges.txt")

// CLIPFolderError is LoadCLIP's error about one of its folders: the
// model's, or the tokenizer's when it was given apart (Tokenizer).
type CLIPFolderError struct {
	Dir       string
	Tokenizer bool
	Err       error
}

// Error implements error.
func (e *CLIPFolderError) Error() string { return e.Dir + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *CLIPFolderError) Unwrap() error { return e.Err }

// LoadCLIP loads the CLIP model of a HuggingFace folder (config.json and
// model.safetensors or pytorch_model.bin) onto o's backend, and the BPE
// vocabulary of tokenizerDir (the model folder when empty): the inputs of
// NewScorer and NewCLIPScorer. A folder that lacks a file or fails to load
// is a *CLIPFolderError (ErrNoVocabulary for a missing vocabulary).
func LoadCLIP(modelDir, tokenizerDir string, o encoders.Options) (*encoders.CLIP, *tokenize.CLIP, error) {
	if _, err := os.Stat(filepath.Join(modelDir, "config.json")); err != nil {
		return nil, nil, &CLIPFolderError{modelDir, false, fmt.Errorf("no config.json (a HuggingFace CLIP folder is needed): %w", err)}
	}
	m, err := encoders.LoadCLIP(modelDir, o)
	if err != nil {
		return nil, nil, &CLIPFolderError{modelDir, false, err}
	}
	fe := &CLIPFolderError{Dir: tokenizerDir, Tokenizer: true}
	if tokenizerDir == "" {
		fe = &CLIPFolderError{Dir: modelDir}
	}
	var tok *tokenize.CLIP
	if !hasAny(fe.Dir, "vocab.json", "vocab.json.gz") || !hasAny(fe.Dir, "merges.txt", "merges.txt.gz") {
		fe.Err = ErrNoVocabulary
	} else {
		tok, fe.Err = tokenize.LoadCLIP(fe.Dir, tokenize.CLIPOptions{})
	}
	if fe.Err != nil {
		_ = m.Close()
		return nil, nil, fe
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
