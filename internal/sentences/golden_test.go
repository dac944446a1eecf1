package sentences

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// goldenDir holds the NLTK 3.8 goldens shared with package words.
const goldenDir = "../words/testdata"

// goldenStory is one line of nltk38_tokens_vist.jsonl.gz with its story.
type goldenStory struct {
	File      string     `json:"file"`
	ID        string     `json:"story_id"`
	Sentences []string   `json:"sentences"`
	Words     [][]string `json:"word_tokens_per_sentence"`
	Text      string     `json:"-"`
}

func readGzipJSON(t testing.TB, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// loadGolden returns the 5,555 golden stories: 5,055 VIST test references
// and 500 LLaVA stories.
func loadGolden(t testing.TB) []goldenStory {
	t.Helper()
	texts := map[string]map[string]string{}
	for file, name := range map[string]string{
		"vist/gt_test":     "vist_gt_test.json.gz",
		"vist/llava_vc_p3": "vist_llava_first500.json.gz",
	} {
		m := map[string]string{}
		readGzipJSON(t, name, &m)
		texts[file] = m
	}
	f, err := os.Open(filepath.Join(goldenDir, "nltk38_tokens_vist.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenStory
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var g goldenStory
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		text, ok := texts[g.File][g.ID]
		if !ok {
			t.Fatalf("line %d: no story %s in %s", len(out)+1, g.ID, g.File)
		}
		g.Text = text
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
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
