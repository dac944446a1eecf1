package train

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"

	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// SOPPair is one sentence-order-prediction example: the model reads
// [CLS] A [SEP] B [SEP] and learns Label 1 when B follows A in the story,
// 0 when the two sentences were swapped.
type SOPPair struct {
	A, B  string
	Label int
}

// SOPPairs makes the sentence-order-prediction examples of RoViST-C's
// training from stories, in story order: for every two adjacent sentences
// (nltk.sent_tokenize, as the scorer splits them) a positive example
// (A, B, label 1) followed by the same pair swapped (B, A, label 0), as the
// RoViST paper describes its coherence training data. A pair whose two
// sentences are equal after stripping white space is skipped: swapped, it
// would be the same input with the other label (the scorer gives such a
// pair 0 without running the model). Stories of fewer than two sentences
// add nothing; text that is not valid UTF-8 is an error naming the story.
func SOPPairs(stories []story.Story) ([]SOPPair, error) {
	var out []SOPPair
	for _, st := range stories {
		if err := checkText(st.Text); err != nil {
			return nil, fmt.Errorf("sentence-order pairs: story %q: %w", st.ID, err)
		}
		sents := sentences.Split(st.Text)
		for i := 1; i < len(sents); i++ {
			a, b := sents[i-1], sents[i]
			if pyStrip(a) == pyStrip(b) {
				continue
			}
			out = append(out, SOPPair{A: a, B: b, Label: 1}, SOPPair{A: b, B: a, Label: 0})
		}
	}
	return out, nil
}

// checkSOPPairs rejects labels other than 0 and 1 and invalid text.
func checkSOPPairs(pairs []SOPPair, what string) error {
	for i, p := range pairs {
		if p.Label != 0 && p.Label != 1 {
			return fmt.Errorf("%s pair %d: label %d is not 0 or 1", what, i, p.Label)
		}
		if err := checkText(p.A); err != nil {
			return fmt.Errorf("%s pair %d: first sentence: %w", what, i, err)
		}
		if err := checkText(p.B); err != nil {
			return fmt.Errorf("%s pair %d: second sentence: %w", what, i, err)
		}
	}
	return nil
}

// checkText rejects text that is not valid UTF-8, as the scorer does.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("story text is not valid UTF-8")
	}
	return nil
}

// pyStrip is Python's str.strip(), which the scorer compares sentences
// after.
func pyStrip(s string) string { return strings.TrimFunc(s, pyunicode.IsSpace) }

// LoadSOPPairs reads a story set ({id: story} or RoViST's
// {id: {"story", "images"}} JSON) from path and makes its sentence-order
// pairs with SOPPairs; l bounds the file (zero: story's defaults).
func LoadSOPPairs(path string, l limits.Limits) ([]SOPPair, error) {
	set, err := story.LoadJSON(path, story.ReadOptions{Limits: l})
	if err != nil {
		return nil, err
	}
	pairs, err := SOPPairs(set.Stories())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, nil
}
