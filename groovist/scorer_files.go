package groovist

import (
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/regions"
)

// ScorerFiles names the files a Scorer reads besides the model: the
// regions CSV (Entities, read with GROOViST's string image ids) and the
// folder of their crops, and the concreteness ratings and pronoun list
// (empty: the embedded defaults).
type ScorerFiles struct {
	Entities, Crops, Ratings, Pronouns string
}

// InputError is the error of one input of NewScorerWithFiles (Input is
// the field of ScorerFiles in lower case: "entities", "ratings",
// "pronouns"), InputFiles.Load ("dataset", "image table", "theta") or
// LoadCaptionsDir ("images"). Its message is the underlying error's.
type InputError struct {
	Input string
	Err   error
}

// Error implements error.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// NewScorerWithFiles returns NewScorer's scorer with the ratings, pronouns and
// regions of f loaded and CropsDir set.
func NewScorerWithFiles(model *encoders.CLIP, tok *tokenize.CLIP, f ScorerFiles) (*Scorer, error) {
	sc, err := NewScorer(model, tok)
	if err != nil {
		return nil, err
	}
	if f.Ratings != "" {
		if sc.Ratings, err = LoadRatings(f.Ratings); err != nil {
			return nil, &InputError{"ratings", err}
		}
	}
	if f.Pronouns != "" {
		if sc.Pronouns, err = LoadPronouns(f.Pronouns); err != nil {
			return nil, &InputError{"pronouns", err}
		}
	}
	if sc.Entities, err = regions.Load(f.Entities, regions.Options{}); err != nil {
		return nil, &InputError{"entities", err}
	}
	sc.CropsDir = f.Crops
	return sc, nil
}
