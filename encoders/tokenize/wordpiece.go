package tokenize

import "unicode/utf8"

// wordPiece is HF's WordpieceTokenizer: greedy longest-match-first over the
// vocabulary, continuation pieces prefixed "##".
type wordPiece struct {
	vocab        map[string]int
	unk          string
	maxWordChars int // HF max_input_chars_per_word (100)
	maxPieceLen  int // bytes of the longest vocabulary entry, a search bound
}

// appendPieces appends the pieces of one word, or the unknown token when a
// part of it has no piece or it has more than maxWordChars characters.
func (wp *wordPiece) appendPieces(dst []string, word string) []string {
	if utf8.RuneCountInString(word) > wp.maxWordChars {
		return append(dst, wp.unk)
	}
	mark := len(dst)
	buf := make([]byte, 0, 2+len(word))
	for start := 0; start < len(word); {
		end := len(word)
		found := ""
		for end > start {
			if start == 0 {
				if end <= wp.maxPieceLen {
					if _, ok := wp.vocab[word[:end]]; ok {
						found = word[:end]
						break
					}
				}
			} else if end-start+2 <= wp.maxPieceLen {
				buf = append(append(buf[:0], "##"...), word[start:end]...)
				// The lookup with string(buf) does not allocate.
				if _, ok := wp.vocab[string(buf)]; ok {
					found = string(buf)
					break
				}
			}
			// Step back one character.
			_, n := utf8.DecodeLastRuneInString(word[start:end])
			end -= n
		}
		if found == "" {
			return append(dst[:mark], wp.unk)
		}
		dst = append(dst, found)
		start = end
	}
	return dst
}
