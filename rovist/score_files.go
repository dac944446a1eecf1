package rovist

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/story"
)

// CheckpointError is an error resolving a checkpoint path
// (CheckpointFile): a path that does not exist, or a folder without
// exactly one *.pth.tar. Its message is the underlying error's, for the
// caller to say which model it was.
type CheckpointError struct{ Err error }

// Error implements error.
func (e *CheckpointError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *CheckpointError) Unwrap() error { return e.Err }

// ScoreCoherenceFiles loads RoViST-C from checkpoint (a file, or a folder
// with one *.pth.tar) and albertDir (CoherenceFiles' default when empty)
// onto enc's backend, scores the stories (CoherenceModel.Score) and
// releases the model. An unresolvable checkpoint is a *CheckpointError;
// scoring errors start with "C: ".
func ScoreCoherenceFiles(ctx context.Context, checkpoint, albertDir string, enc encoders.Options, stories []story.Story, opts CoherenceOptions) ([]CoherenceResult, error) {
	ckpt, albert, err := CoherenceFiles(checkpoint, albertDir)
	if err != nil {
		return nil, &CheckpointError{err}
	}
	m, err := LoadCoherenceModel(ckpt, albert, enc)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	res, err := m.Score(ctx, stories, opts)
	if err != nil {
		return nil, fmt.Errorf("C: %w", err)
	}
	return res, nil
}

// ScoreGroundingFiles loads RoViST-VG from checkpoint (a file, or a folder
// with one *.pth.tar) and f for the nouns of the stories (StoryNouns with
// opts.Nouns: only their GloVe vectors are kept), calls loaded, when not
// nil, with the grounder and its resolved checkpoint and ViT folder (to
// set its cache, see GroundingCacheModel), scores the stories
// (Grounder.Score) and releases the model. An unresolvable checkpoint is a
// *CheckpointError; scoring errors start with "VG: ".
func ScoreGroundingFiles(ctx context.Context, checkpoint string, f GrounderFiles, stories []story.Story, opts VGOptions, loaded func(g *Grounder, checkpoint, vit string) error) ([]VGResult, error) {
	nouns, err := StoryNouns(stories, opts.Nouns)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, n := range nouns {
		words = append(words, n...)
	}
	ckpt, vit, err := GroundingFiles(checkpoint, f.ViT)
	if err != nil {
		return nil, &CheckpointError{err}
	}
	f.ViT = vit
	g, err := LoadGrounder(ckpt, f, words)
	if err != nil {
		return nil, err
	}
	defer g.Model.Close()
	if loaded != nil {
		if err := loaded(g, ckpt, vit); err != nil {
			return nil, err
		}
	}
	res, err := g.Score(ctx, stories, opts)
	if err != nil {
		return nil, fmt.Errorf("VG: %w", err)
	}
	return res, nil
}
