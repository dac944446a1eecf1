package words

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

var fuzzSeeds = []string{
	"",
	`They said "don't go." I cannot wait -- it's 3:30.`,
	`"Hello," she said. Bye.`,
	"i 'm happy . i'm happy . I am happy .",
	"gimme gonna gotta lemme wanna more'n d'ye 'tis 'twas CANNOT gİmme",
	"```quoted''  «a» “b” ‘c’ „d” (x) [y] {z} <w> a--b ... . . . 1,000 3:30 $5 50% #1 @me a&b *",
	"the end.\n",
	"rock'n'roll o'clock 'em 'a 'K 'ſ x' y'S z'M q'd n't N'T 'll 'LL 're 'RE 've 'VE",
	"\u00a0é\x1cİ\u3000٣²\xff\xfe",
}

// normalizedChars returns the non-whitespace characters of s in order, with
// the quote conversions of the tokenizer undone: a double quote becomes two
// apostrophes or two backticks, so both sides map " and ` to '.
func normalizedChars(s string, input bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case pyunicode.IsSpace(r):
		case r == '"' && input:
			b.WriteString("''")
		case r == '`':
			b.WriteByte('\'')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func checkTokens(t *testing.T, text string, tokens []string) {
	t.Helper()
	for i, tok := range tokens {
		if tok == "" || strings.IndexFunc(tok, pyunicode.IsSpace) >= 0 {
			t.Fatalf("token %d %q is empty or holds whitespace", i, tok)
		}
	}
	// string([]rune(text)) replaces invalid UTF-8 bytes with U+FFFD, as the
	// tokenizer reads its input.
	want := normalizedChars(string([]rune(text)), true)
	got := normalizedChars(strings.Join(tokens, ""), false)
	if got != want {
		t.Fatalf("tokens %q of %q do not keep the input's characters:\n got %q\nwant %q", tokens, text, got, want)
	}
}

// FuzzTokenizeSentence checks that NLTKWordTokenizer never panics, yields
// no empty tokens and keeps every non-whitespace character of its input in
// order, modulo the quote conversions (a double quote becomes two
// backticks or two apostrophes).
func FuzzTokenizeSentence(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkTokens(t, text, TokenizeSentence(text))
	})
}

// FuzzTokenize checks the same for word_tokenize, which first splits the
// text into sentences, and that a reused Tokenizer gives the same tokens.
func FuzzTokenize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	var tk Tokenizer // reused across inputs, as a caller would
	f.Fuzz(func(t *testing.T, text string) {
		tokens := Tokenize(text)
		checkTokens(t, text, tokens)
		if again := tk.Tokenize(nil, text); !equalStrings(again, tokens) {
			t.Fatalf("reused Tokenizer gave %q, fresh one %q", again, tokens)
		}
	})
}
