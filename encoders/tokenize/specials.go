package tokenize

import (
	"sort"
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// specialSplitter cuts a text at the special tokens written in it, as the
// "no split" trie of HF's PreTrainedTokenizer.tokenize does: at the leftmost
// position where a special token starts, the longest one is taken.
type specialSplitter struct {
	tokens []string  // longest first
	starts [256]bool // first bytes of the tokens
}

func newSpecialSplitter(tokens []string) specialSplitter {
	seen := map[string]bool{}
	var uniq []string
	for _, t := range tokens {
		if t != "" && !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
		}
	}
	sort.SliceStable(uniq, func(i, j int) bool { return len(uniq[i]) > len(uniq[j]) })
	s := specialSplitter{tokens: uniq}
	for _, t := range uniq {
		s.starts[t[0]] = true
	}
	return s
}

// piece is a part of a text: a special token or the plain text between two.
type piece struct {
	text    string
	special bool
}

// split cuts text at the special tokens. Matches the reference
// implementation, which strips the white space on both sides of a special
// token given as a plain string (all special tokens of the three families
// but ALBERT's [MASK], whose lstrip only strips its left side; the families'
// own tokenizers ignore the white space at the ends of a text either way).
func (s specialSplitter) split(text string) []piece {
	var out []piece
	rest := text
	for len(rest) > 0 {
		at, tok := -1, ""
		for i := 0; i < len(rest) && at < 0; i++ {
			if !s.starts[rest[i]] {
				continue
			}
			for _, t := range s.tokens {
				if strings.HasPrefix(rest[i:], t) {
					at, tok = i, t
					break
				}
			}
		}
		if at < 0 {
			out = append(out, piece{text: rest})
			break
		}
		if at > 0 {
			out = append(out, piece{text: rest[:at]})
		}
		out = append(out, piece{text: tok, special: true})
		rest = rest[at+len(tok):]
	}
	return out
}

// lowerOutside lower-cases text one character at a time except the special
// tokens in it, then splits it. Matches the reference implementation, whose
// tokenize() lower-cases with re.sub before splitting, so that "<PAD>"
// becomes the special token "<pad>".
func (s specialSplitter) lowerOutside(text string) []piece {
	var b strings.Builder
	b.Grow(len(text))
	for _, p := range s.split(text) {
		if p.special {
			b.WriteString(p.text)
		} else {
			b.WriteString(pyunicode.LowerChars(p.text))
		}
	}
	return s.split(b.String())
}
