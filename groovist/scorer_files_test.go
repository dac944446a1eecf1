package groovist

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestNewScorerWithFiles loads the fixture's regions, ratings and pronouns and
// checks that each missing file is an *InputError naming its field.
func TestNewScorerWithFiles(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	defer m.Close()
	dir := e2efixtures.Metric("groovist")
	t.Logf("fixtures: %s", dir)
	f := ScorerFiles{Entities: filepath.Join(dir, "aesop_entities.csv"), Crops: filepath.Join(dir, "aesop-entities"),
		Ratings: filepath.Join(dir, "concreteness_ratings.csv"), Pronouns: filepath.Join(dir, "all_pronouns.txt")}
	sc, err := NewScorerWithFiles(m, tok, f)
	if err != nil {
		t.Fatal(err)
	}
	if sc.CropsDir != f.Crops || sc.Entities.Len() == 0 || sc.Ratings == nil || sc.Pronouns == nil {
		t.Errorf("NewScorerWithFiles: crops %q, %d regions, ratings %v, pronouns %v", sc.CropsDir, sc.Entities.Len(), sc.Ratings != nil, sc.Pronouns != nil)
	}
	missing := filepath.Join(t.TempDir(), "none")
	for _, input := range []string{"entities", "ratings", "pronouns"} {
		g := f
		switch input {
		case "entities":
			g.Entities = missing
		case "ratings":
			g.Ratings = missing
		case "pronouns":
			g.Pronouns = missing
		}
		_, err := NewScorerWithFiles(m, tok, g)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Input != input || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing %s: %v, want an *InputError for it", input, err)
		}
	}
}
