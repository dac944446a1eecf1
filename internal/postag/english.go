package postag

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

// englishModel is NLTK's averaged_perceptron_tagger English model (nltk_data,
// Apache-2.0), converted by internal/modelgen.
//
//go:embed nltk_english.apm.gz
var englishModel []byte

var english struct {
	once   sync.Once
	tagger *Tagger
	err    error
}

// English returns the tagger with NLTK's English model (the one nltk.pos_tag
// uses), decoding it on the first call. Later calls return the same Tagger.
func English() (*Tagger, error) {
	english.once.Do(func() {
		english.tagger, english.err = decodeEnglish()
	})
	return english.tagger, english.err
}

func decodeEnglish() (*Tagger, error) {
	m, err := apmodel.Decode(englishModel)
	if err != nil {
		return nil, fmt.Errorf("postag: embedded English model: %w", err)
	}
	return newTagger(m)
}

// Tag tags tokens with the English model, as nltk.pos_tag(tokens) does.
func Tag(tokens []string) ([]string, error) {
	t, err := English()
	if err != nil {
		return nil, err
	}
	return t.Tag(tokens), nil
}
