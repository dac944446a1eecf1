package wnlemma

import "testing"

// Expected lemmas are NLTK 3.8 WordNetLemmatizer().lemmatize(word) on
// WordNet 3.0, as recorded in the GROOViST fixtures (wordnet_fallback_words)
// and in NLTK's documentation.
func TestLemma(t *testing.T) {
	n, err := English()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"'s": "'s", "animals": "animal", "bottles": "bottle", "bridesmaids": "bridesmaid",
		"dresses": "dress", "fans": "fan", "flowers": "flower", "gadgets": "gadget",
		"girls": "girl", "grilling": "grilling", "guests": "guest", "instruments": "instrument",
		"mascots": "mascot", "ones": "one", "pic": "pic", "potatoes": "potato",
		"sculptures": "sculpture", "sippy": "sippy", "stalls": "stall", "stands": "stand",
		"t-shirts": "t-shirt", "thousands": "thousand", "xyzzy": "xyzzy",
		"women": "woman", "geese": "goose", "wolves": "wolf", "churches": "church",
		"": "", "Dogs": "Dogs",
	}
	for w, want := range cases {
		if got := n.Lemma(w); got != want {
			t.Errorf("Lemma(%q) = %q, want %q", w, got, want)
		}
	}
}
