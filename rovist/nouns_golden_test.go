package rovist

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/internal/postag"
)

// nounSentence is one sentence of the noun goldens: RoViST's extraction run
// with NLTK 3.8 on the sentence (placeholders already replaced).
type nounSentence struct {
	Sentence string   `json:"sentence"`
	Tokens   []string `json:"tokens"`
	Tags     []string `json:"tags"`
	Nouns    []string `json:"nouns_sorted"`
}

// nounGoldenFiles: the first 200 VIST test reference stories and GROOViST's
// two samples.
var nounGoldenFiles = []string{"nouns_vist_gt_test_first200.json.gz", "nouns_groovist_samples.json.gz"}

func readGzipJSON(t testing.TB, name string, v any) {
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
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func readNounGolden(t testing.TB, name string) map[string][]nounSentence {
	var stories map[string][]nounSentence
	readGzipJSON(t, name, &stories)
	if len(stories) == 0 {
		t.Fatalf("%s: no stories", name)
	}
	return stories
}

// TestSentenceNounsFromGoldenTokens checks tagging and noun selection on
// NLTK's own tokens, independently of the sentence splitter and word
// tokenizer.
func TestSentenceNounsFromGoldenTokens(t *testing.T) {
	tagger, err := postag.English()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range nounGoldenFiles {
		total, same := 0, 0
		for id, story := range readNounGolden(t, name) {
			for i, s := range story {
				total++
				got := sentenceNouns(s.Tokens, tagger.Tag(s.Tokens))
				if slices.Equal(got, s.Nouns) {
					same++
				} else {
					t.Errorf("%s story %s sentence %d %q: nouns %q, want %q", name, id, i, s.Sentence, got, s.Nouns)
				}
			}
		}
		t.Logf("%s: %d/%d sentences with identical nouns from the golden tokens", name, same, total)
	}
}

func TestSentenceNouns(t *testing.T) {
	for _, c := range []struct {
		tokens, tags, want []string
	}{
		{[]string{"i", "saw", "the", "dog", "and", "the", "dog", "saw", "i"}, []string{"NN", "VBD", "DT", "NN", "CC", "DT", "NN", "VBD", "NN"}, []string{"dog"}},
		{[]string{"I", "met", "John", "Smiths", "and", "Dogs"}, []string{"NNP", "VBD", "NNP", "NNPS", "CC", "NNS"}, []string{"Dogs", "I", "John", "Smiths"}},
		{[]string{"it", "was", "fun"}, []string{"PRP", "VBD", "JJ"}, []string{}},
		{[]string{"ünïcode", "zebra", "apple"}, []string{"NN", "NN", "NN"}, []string{"apple", "zebra", "ünïcode"}},
	} {
		got := sentenceNouns(c.tokens, c.tags)
		if got == nil || !slices.Equal(got, c.want) {
			t.Errorf("sentenceNouns(%q, %q) = %#v, want %q", c.tokens, c.tags, got, c.want)
		}
	}
}

func TestReplacePlaceholders(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[male] and [female] went to [location] with [organization] .", "male and female went to location with organization ."},
		{"[fe[male]]", "female"},
		{"[Male] [person]", "[Male] [person]"},
	} {
		if got := replacePlaceholders(c.in); got != c.want {
			t.Errorf("replacePlaceholders(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
