package rovist

import (
	"encoding/json"
	"testing"

	"github.com/storyeval/storyeval/story"
)

// TestTokensAll checks the ids, the order and the JSON line of each story
// against NLTK 3.8's splits worked out by hand (see TestTokens).
func TestTokensAll(t *testing.T) {
	got := TokensAll([]story.Story{{ID: "b", Text: "He can't stay."}, {ID: "a", Text: ""}})
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"id":"b","sentences":["He can't stay."],"words":[["He","ca","n't","stay","."]]},{"id":"a","sentences":[],"words":[]}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
