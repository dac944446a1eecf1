package postag

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// goldenSentence is one sentence of the noun-extraction goldens, tagged by
// NLTK 3.8's nltk.pos_tag.
type goldenSentence struct {
	Sentence string   `json:"sentence"`
	Tokens   []string `json:"tokens"`
	Tags     []string `json:"tags"`
}

// goldenFiles are the NLTK-tagged sentences: 200 VIST test stories and
// GROOViST's two samples.
var goldenFiles = []string{"nouns_vist_gt_test_first200.json.gz", "nouns_groovist_samples.json.gz"}

func readGolden(t testing.TB, name string) (ids []string, stories map[string][]goldenSentence) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.NewDecoder(zr).Decode(&stories); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for id := range stories {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, stories
}

func TestTagMatchesNLTK(t *testing.T) {
	tagger, err := English()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range goldenFiles {
		ids, stories := readGolden(t, name)
		sentences, tokens, same := 0, 0, 0
		for _, id := range ids {
			for i, s := range stories[id] {
				got := tagger.Tag(s.Tokens)
				sentences++
				tokens += len(s.Tokens)
				ok := len(got) == len(s.Tags)
				for j := 0; ok && j < len(got); j++ {
					ok = got[j] == s.Tags[j]
				}
				if ok {
					same++
				} else {
					t.Errorf("%s story %s sentence %d %q:\n got %q\nwant %q", name, id, i, s.Sentence, got, s.Tags)
				}
			}
		}
		t.Logf("%s: %d/%d sentences (%d tokens) tagged identically to NLTK", name, same, sentences, tokens)
		if sentences == 0 {
			t.Errorf("%s: no sentences", name)
		}
	}
}
