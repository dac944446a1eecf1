package rovist

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/errtext"
)

// MissingIDFError reports a story noun that the idf table lacks. The
// reference raises KeyError there; a caller can instead score such nouns
// with a default weight (VGOptions.UseDefaultIDF and DefaultIDF), weight
// every noun 1 (VGOptions.NoIDF), or extend the table.
type MissingIDFError struct {
	// Story is the story's id and Noun the noun without a weight.
	Story, Noun string
}

// Error names the story and the noun.
func (e *MissingIDFError) Error() string {
	return fmt.Sprintf("story %s: the noun %s has no idf weight (the reference raises KeyError; set a default idf to score it)", errtext.Quote(e.Story), errtext.Quote(e.Noun))
}
