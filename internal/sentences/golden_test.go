package sentences

import (
	"testing"

	"github.com/storyeval/storyeval/internal/nltkgolden"
)

// goldenDir holds the NLTK 3.8 goldens shared with package words.
const (
	goldenDir = "../../testdata/words"
	tokensDir = "../../testdata/words"
)

// goldenStory is one golden story with NLTK's sentences and words.
type goldenStory = nltkgolden.Story

// loadGolden returns the 5,555 golden stories: 5,055 VIST test references
// and 500 LLaVA stories.
func loadGolden(t testing.TB) []goldenStory {
	t.Helper()
	stories, err := nltkgolden.Load(goldenDir, tokensDir)
	if err != nil {
		t.Fatal(err)
	}
	return stories
}

func TestSplitMatchesNLTKOnGoldenStories(t *testing.T) {
	stories := loadGolden(t)
	if len(stories) != 5555 {
		t.Fatalf("golden has %d stories, want 5555", len(stories))
	}
	same, shown := 0, 0
	for _, g := range stories {
		got := Split(g.Text)
		if equalStrings(got, g.Sentences) {
			same++
			continue
		}
		if shown++; shown <= 10 {
			t.Errorf("%s %s: Split = %q, want %q", g.File, g.ID, got, g.Sentences)
		}
	}
	if same != len(stories) {
		t.Errorf("%d of %d stories split identically", same, len(stories))
	}
	t.Logf("%d of %d stories split identically", same, len(stories))
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
