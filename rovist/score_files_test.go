package rovist_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// TestScoreCoherenceFiles scores the fixture stories from the folder of
// the released layout and compares with loading the model by hand; a
// folder without a checkpoint is a *CheckpointError with CheckpointFile's
// message.
func TestScoreCoherenceFiles(t *testing.T) {
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", dir)
	set, err := story.LoadJSON(filepath.Join(dir, "stories.json"), story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stories := set.Stories()[:3]
	got, err := rovist.ScoreCoherenceFiles(context.Background(), dir, "", encoders.Options{}, stories, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ckpt, albert, err := rovist.CoherenceFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := rovist.LoadCoherenceModel(ckpt, albert)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	want, err := m.Score(context.Background(), stories, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ScoreCoherenceFiles = %+v\nwant %+v", got, want)
	}
	empty := t.TempDir()
	_, err = rovist.ScoreCoherenceFiles(context.Background(), empty, "", encoders.Options{}, stories, rovist.CoherenceOptions{})
	_, want2 := rovist.CheckpointFile(empty)
	if !errors.As(err, new(*rovist.CheckpointError)) || want2 == nil || err.Error() != want2.Error() {
		t.Errorf("empty folder: %v, want a *CheckpointError %q", err, want2)
	}
	_, err = rovist.ScoreGroundingFiles(context.Background(), empty, rovist.GrounderFiles{}, stories, rovist.VGOptions{}, nil)
	if !errors.As(err, new(*rovist.CheckpointError)) || !strings.Contains(err.Error(), "*.pth.tar") {
		t.Errorf("grounding, empty folder: %v, want a *CheckpointError", err)
	}
}
