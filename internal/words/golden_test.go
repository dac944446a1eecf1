package words

import (
	"testing"

	"github.com/storyeval/storyeval/internal/nltkgolden"
)

// goldenDir holds the stories of the NLTK 3.8 goldens, shared with packages
// sentences and rovist; tokensDir holds NLTK's outputs on them.
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

func TestTokenizeMatchesNLTKOnGoldenStories(t *testing.T) {
	stories := loadGolden(t)
	if len(stories) != 5555 {
		t.Fatalf("golden has %d stories, want 5555", len(stories))
	}
	sentences, same, shown := 0, 0, 0
	for _, g := range stories {
		if len(g.Words) != len(g.Sentences) {
			t.Fatalf("%s %s: %d token lists for %d sentences", g.File, g.ID, len(g.Words), len(g.Sentences))
		}
		for i, s := range g.Sentences {
			sentences++
			got := Tokenize(s)
			if equalStrings(got, g.Words[i]) {
				same++
				continue
			}
			if shown++; shown <= 10 {
				t.Errorf("%s %s sentence %d: Tokenize(%q) = %q, want %q", g.File, g.ID, i, s, got, g.Words[i])
			}
		}
	}
	if same != sentences {
		t.Errorf("%d of %d sentences tokenized identically", same, sentences)
	}
	t.Logf("%d sentences of %d stories tokenized identically", same, len(stories))
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
