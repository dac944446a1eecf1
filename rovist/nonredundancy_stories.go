package rovist

import (
	"fmt"

	"github.com/storyeval/storyeval/story"
)

// NonRedundancyOfStories is NonRedundancyScores over the stories' texts
// (scores only: the per-pair diagnostics of every story would take 15×
// the input, issue 24); the first story that fails is an error naming it.
func NonRedundancyOfStories(stories []story.Story, opts NROptions) ([]NRResult, error) {
	res, errs := NonRedundancyScores(story.Texts(stories), opts)
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("story %q: %w", stories[i].ID, err)
		}
	}
	return res, nil
}
