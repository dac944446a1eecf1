package postag

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

// NLTK 3.8's own doctests of the pretrained tagger (nltk/tag/__init__.py,
// nltk/tag/perceptron.py): mixed case, contractions and a closing period,
// which the lower-case VIST goldens do not exercise.
func TestTagNLTKDoctests(t *testing.T) {
	for _, c := range []struct{ tokens, want string }{
		{"John 's big idea is n't all that bad .", "NNP POS JJ NN VBZ RB PDT DT JJ ."},
		{"The quick brown fox jumps over the lazy dog", "DT JJ NN NN VBZ IN DT JJ NN"},
		{"The red cat", "DT JJ NN"},
	} {
		got, err := Tag(strings.Fields(c.tokens))
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Fields(c.want); !reflect.DeepEqual(got, want) {
			t.Errorf("Tag(%q) = %q, want %q", c.tokens, got, want)
		}
	}
}

func TestTagEdgeInputs(t *testing.T) {
	tagger, err := English()
	if err != nil {
		t.Fatal(err)
	}
	if got := tagger.Tag(nil); len(got) != 0 {
		t.Errorf("Tag(nil) = %q, want no tags", got)
	}
	// NLTK 3.8 tags an empty token (issue #2483) instead of failing.
	if got := tagger.Tag([]string{"", "is", "a", "beautiful", "day"}); len(got) != 5 || got[4] != "NN" {
		t.Errorf("Tag with an empty token = %q", got)
	}
	dst := []string{"keep"}
	if got := tagger.AppendTags(dst, []string{"the", "dog"}); !reflect.DeepEqual(got, []string{"keep", "DT", "NN"}) {
		t.Errorf("AppendTags = %q", got)
	}
}

// tinyTagger builds a two-feature model to pin down scoring and tie-breaking.
func tinyTagger(t *testing.T, bias []int32) *Tagger {
	t.Helper()
	tg, err := newTagger(&apmodel.Model{
		Classes: []string{"AA", "BB", "CC"},
		TagDict: map[string]uint8{"Known": 0},
		Features: []apmodel.Feature{
			{Key: "bias", Classes: []uint8{0, 1, 2}, Milli: bias},
			{Key: "i word x", Classes: []uint8{0}, Milli: []int32{5000}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func TestTagTieBreaking(t *testing.T) {
	for _, c := range []struct {
		bias   []int32
		tokens string
		want   string
	}{
		// NLTK: max(classes, key=lambda label: (score, label)); equal scores
		// go to the greatest label.
		{[]int32{1000, 1000, 1000}, "y", "CC"},
		{[]int32{1000, 1000, -1}, "y", "BB"},
		{[]int32{2000, 1000, 1000}, "y", "AA"},
		// All scores 0 (no feature known): the greatest class.
		{[]int32{0, 0, 0}, "y", "CC"},
		// A word feature adds to the bias; lookups use the normalised word.
		{[]int32{1000, 3000, 0}, "X", "AA"},
		// The tag dictionary is case-sensitive and skips scoring.
		{[]int32{0, 0, 1000}, "Known known", "AA CC"},
	} {
		got := tinyTagger(t, c.bias).Tag(strings.Fields(c.tokens))
		if want := strings.Fields(c.want); !reflect.DeepEqual(got, want) {
			t.Errorf("bias %v, Tag(%q) = %q, want %q", c.bias, c.tokens, got, want)
		}
	}
}

func TestNewTaggerRejectsUnknownFeature(t *testing.T) {
	_, err := newTagger(&apmodel.Model{
		Classes:  []string{"NN"},
		Features: []apmodel.Feature{{Key: "i suffix2 ing", Classes: []uint8{0}, Milli: []int32{1}}},
	})
	if err == nil {
		t.Error("newTagger accepted a feature no template produces")
	}
}

func TestTagConcurrent(t *testing.T) {
	tokens := strings.Fields("the dog ran to the park and played with a red ball")
	want, err := Tag(tokens)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				got, err := Tag(tokens)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("concurrent Tag = %q, %v; want %q", got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestClasses(t *testing.T) {
	tagger, err := English()
	if err != nil {
		t.Fatal(err)
	}
	cls := tagger.Classes()
	if len(cls) != 45 || cls[0] != "#" || cls[len(cls)-1] != "``" {
		t.Errorf("Classes() = %q, want NLTK's 45 Penn Treebank tags", cls)
	}
	cls[0] = "changed"
	if tagger.Classes()[0] != "#" {
		t.Error("Classes() exposes the tagger's own slice")
	}
}
