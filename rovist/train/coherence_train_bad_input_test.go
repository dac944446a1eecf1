package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/story"
)

// TestCoherenceTrainBadInput checks the errors of the trainer's
// constructors and Train on bad configurations, checkpoints and pairs.
func TestCoherenceTrainBadInput(t *testing.T) {
	cfg, albertDir := fixtureALBERTConfig(t)
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	t.Run("two layer groups", func(t *testing.T) {
		c := cfg
		c.NumHiddenGroups = 2
		_, err := NewRandomCoherenceTrainer(c, tok, nil, CoherenceTrainOptions{})
		wantErr(t, err, "num_hidden_groups 2")
	})
	t.Run("activation", func(t *testing.T) {
		// Every activation compute knows has a backward pass (relu
		// trains); one it does not know is refused.
		c := cfg
		c.HiddenAct = "silu"
		_, err := NewRandomCoherenceTrainer(c, tok, nil, CoherenceTrainOptions{})
		wantErr(t, err, `hidden_act "silu"`)
		c.HiddenAct = "relu"
		if _, err := NewRandomCoherenceTrainer(c, tok, nil, CoherenceTrainOptions{}); err != nil {
			t.Errorf("relu: %v", err)
		}
	})
	t.Run("options", func(t *testing.T) {
		_, err := NewRandomCoherenceTrainer(cfg, tok, nil, CoherenceTrainOptions{Dropout: 1.5})
		wantErr(t, err, "invalid coherence training options")
	})
	t.Run("vocabulary", func(t *testing.T) {
		c := cfg
		c.VocabSize = 100
		_, err := NewRandomCoherenceTrainer(c, tok, nil, CoherenceTrainOptions{})
		wantErr(t, err, "vocab_size 100")
	})
	t.Run("not a classifier checkpoint", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "x.pth.tar")
		if err := os.WriteFile(bad, []byte("not a checkpoint"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := NewCoherenceTrainer(bad, albertDir, CoherenceTrainOptions{})
		wantErr(t, err, "x.pth.tar")
	})
	t.Run("ALBERT folder without weights", func(t *testing.T) {
		_, err := NewCoherenceTrainer("", albertDir, CoherenceTrainOptions{})
		wantErr(t, err, albertDir)
	})
	t.Run("resume from an empty folder", func(t *testing.T) {
		dir := t.TempDir()
		_, err := ResumeCoherenceTrainer(dir, CoherenceTrainOptions{})
		wantErr(t, err, dir, "no coherence training checkpoint")
	})

	tr, err := NewCoherenceTrainer(findOne(t, e2efixtures.Metric("rovist_c"), "*.pth.tar"), albertDir, CoherenceTrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("no pairs", func(t *testing.T) {
		_, err := tr.Train(ctx, nil, nil)
		wantErr(t, err, "no training pairs")
	})
	t.Run("label", func(t *testing.T) {
		_, err := tr.Train(ctx, []SOPPair{{A: "a.", B: "b.", Label: 1}, {A: "a.", B: "b.", Label: 2}}, nil)
		wantErr(t, err, "pair 1", "label 2")
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		_, err := tr.Step(ctx, []SOPPair{{A: "a\xff.", B: "b.", Label: 1}})
		wantErr(t, err, "pair 0", "UTF-8")
		_, err = SOPPairs([]story.Story{{ID: "s1", Text: "ok. bad \xff."}})
		wantErr(t, err, `story "s1"`, "UTF-8")
	})
	t.Run("empty batch", func(t *testing.T) {
		_, err := tr.Step(ctx, nil)
		wantErr(t, err, "empty batch")
	})
}
