package words

import "testing"

// TestTokenizeCases checks hand-picked texts against NLTK 3.8 (expected
// values produced by NLTK 3.8's NLTKWordTokenizer and word_tokenize):
// quote conversion, typographic quotes, contractions under re.IGNORECASE
// (İ matches i), clitics, brackets, ellipses, and colons and commas inside
// numbers.
func TestTokenizeCases(t *testing.T) {
	tests := []struct {
		text     string
		sentence []string // TokenizeSentence(text)
		all      []string // Tokenize(text)
	}{
		{"They'll say \"no,\" won't they?",
			[]string{"They", "'ll", "say", "``", "no", ",", "''", "wo", "n't", "they", "?"},
			[]string{"They", "'ll", "say", "``", "no", ",", "''", "wo", "n't", "they", "?"}},
		{"\u201cQuoted\u201d \u2018single\u2019 \u00abangle\u00bb and \u201elow\u201d.",
			[]string{"\u201c", "Quoted", "\u201d", "\u2018", "single", "\u2019", "\u00ab", "angle", "\u00bb", "and", "\u201e", "low", "\u201d", "."},
			[]string{"\u201c", "Quoted", "\u201d", "\u2018", "single", "\u2019", "\u00ab", "angle", "\u00bb", "and", "\u201e", "low", "\u201d", "."}},
		{"I cannot, I gotta go; gimme 5 mins & lemme see @home #1 50% $3.88 a*b.",
			[]string{"I", "can", "not", ",", "I", "got", "ta", "go", ";", "gim", "me", "5", "mins", "&", "lem", "me", "see", "@", "home", "#", "1", "50", "%", "$", "3.88", "a", "*", "b", "."},
			[]string{"I", "can", "not", ",", "I", "got", "ta", "go", ";", "gim", "me", "5", "mins", "&", "lem", "me", "see", "@", "home", "#", "1", "50", "%", "$", "3.88", "a", "*", "b", "."}},
		{"'Tis the season. 'twas fun",
			[]string{"'T", "is", "the", "season.", "'t", "was", "fun"},
			[]string{"'T", "is", "the", "season", ".", "'t", "was", "fun"}},
		{"CANNOT g\u0130mme WANNA\tgo",
			[]string{"CAN", "NOT", "g\u0130m", "me", "WAN", "NA", "go"},
			[]string{"CAN", "NOT", "g\u0130m", "me", "WAN", "NA", "go"}},
		{"x' y'S z'd it's I'M 'a 'b",
			[]string{"x", "'", "y", "'S", "z", "'d", "it", "'s", "I", "'M", "'", "a", "'", "b"},
			[]string{"x", "'", "y", "'S", "z", "'d", "it", "'s", "I", "'M", "'", "a", "'", "b"}},
		{"[male] went to (the) {park} <now> -- ok... end.",
			[]string{"[", "male", "]", "went", "to", "(", "the", ")", "{", "park", "}", "<", "now", ">", "--", "ok", "...", "end", "."},
			[]string{"[", "male", "]", "went", "to", "(", "the", ")", "{", "park", "}", "<", "now", ">", "--", "ok", "...", "end", "."}},
		{"3,36 euros: 1:30, a:b,c",
			[]string{"3,36", "euros", ":", "1:30", ",", "a", ":", "b", ",", "c"},
			[]string{"3,36", "euros", ":", "1:30", ",", "a", ":", "b", ",", "c"}},
	}
	for _, tt := range tests {
		if got := TokenizeSentence(tt.text); !equalStrings(got, tt.sentence) {
			t.Errorf("TokenizeSentence(%q) = %q, want %q", tt.text, got, tt.sentence)
		}
		if got := Tokenize(tt.text); !equalStrings(got, tt.all) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.text, got, tt.all)
		}
	}
}
