package tokenize

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// fakeSegment builds a segment of n tokens named by prefix.
func fakeSegment(prefix string, n int) segment {
	s := segment{}
	for i := range n {
		s.tokens = append(s.tokens, prefix)
		s.ids = append(s.ids, i)
	}
	return s
}

func TestTruncateStrategies(t *testing.T) {
	tests := []struct {
		name         string
		na, nb       int
		pair         bool
		excess       int
		strategy     Truncation
		wantA, wantB int
	}{
		{"longest_first single", 10, 0, false, 3, LongestFirst, 7, 0},
		// HF removes one token at a time from the longer, the second on ties.
		{"longest_first pair longer first", 10, 4, true, 5, LongestFirst, 5, 4},
		{"longest_first pair alternates", 10, 4, true, 8, LongestFirst, 3, 3},
		{"longest_first pair ties take second", 5, 5, true, 1, LongestFirst, 5, 4},
		{"longest_first pair odd", 5, 5, true, 3, LongestFirst, 4, 3},
		{"only_first", 10, 4, true, 3, OnlyFirst, 7, 4},
		// HF logs an error and leaves both untouched when the sequence it
		// may cut is not longer than the excess.
		{"only_first too short", 3, 10, true, 3, OnlyFirst, 3, 10},
		{"only_second", 4, 10, true, 3, OnlySecond, 4, 7},
		{"only_second too short", 10, 2, true, 5, OnlySecond, 10, 2},
		{"only_second single is ignored", 10, 0, false, 3, OnlySecond, 10, 0},
		{"longest_first single too short", 2, 0, false, 3, LongestFirst, 2, 0},
		{"no excess", 2, 2, true, 0, LongestFirst, 2, 2},
	}
	for _, tc := range tests {
		a, b := truncate(fakeSegment("a", tc.na), fakeSegment("b", tc.nb), tc.pair, tc.excess, tc.strategy)
		if len(a.ids) != tc.wantA || len(b.ids) != tc.wantB {
			t.Errorf("%s: got lengths %d, %d; want %d, %d", tc.name, len(a.ids), len(b.ids), tc.wantA, tc.wantB)
		}
	}
}

func TestEncodeLayoutAndPadding(t *testing.T) {
	bert, albert, clip := loadTestTokenizers(t)

	// BERT pair truncated to 8 with longest_first, then padded to 10.
	batch, err := bert.EncodePairBatch(
		[]string{"the first sentence is long", "hi"},
		[]string{"short one", "there"},
		Options{Truncation: LongestFirst, MaxLength: 8, Padding: PadMaxLength})
	if err != nil {
		t.Fatal(err)
	}
	wantTokens := [][]string{
		{"[CLS]", "the", "first", "sentence", "[SEP]", "short", "one", "[SEP]"},
		{"[CLS]", "hi", "[SEP]", "there", "[SEP]", "[PAD]", "[PAD]", "[PAD]"},
	}
	wantTypes := [][]int{{0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 1, 1, 0, 0, 0}}
	wantMask := [][]int{{1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0}}
	for i, e := range batch {
		if !reflect.DeepEqual(e.Tokens, wantTokens[i]) || !reflect.DeepEqual(e.TypeIDs, wantTypes[i]) || !reflect.DeepEqual(e.AttentionMask, wantMask[i]) {
			t.Errorf("BERT pair %d: got %v %v %v", i, e.Tokens, e.TypeIDs, e.AttentionMask)
		}
	}
	if batch[1].IDs[7] != 0 {
		t.Errorf("BERT pad id %d, want 0", batch[1].IDs[7])
	}

	// ALBERT pads with <pad> = 0 and keeps [CLS] = 2, [SEP] = 3.
	a, err := albert.EncodeBatch([]string{"a", "a man"}, Options{Padding: PadLongest})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 21, 3, 0}; !reflect.DeepEqual(a[0].IDs, want) {
		t.Errorf("ALBERT padded ids %v, want %v", a[0].IDs, want)
	}

	// CLIP pairs are <bos> A <eos> <eos> B <eos>, all type 0
	// (CLIPTokenizer.build_inputs_with_special_tokens).
	e := clip.EncodePair("a", "man")
	if want := []int{49406, 320, 49407, 49407, 786, 49407}; !reflect.DeepEqual(e.IDs, want) {
		t.Errorf("CLIP pair ids %v, want %v", e.IDs, want)
	}
	if want := []int{0, 0, 0, 0, 0, 0}; !reflect.DeepEqual(e.TypeIDs, want) {
		t.Errorf("CLIP pair types %v", e.TypeIDs)
	}
	if got := clip.ModelMaxLength(); got != 77 {
		t.Errorf("CLIP model max length %d, want 77", got)
	}
	if got := bert.ModelMaxLength(); got != 512 {
		t.Errorf("BERT model max length %d, want 512", got)
	}
}

func TestEncodeErrors(t *testing.T) {
	bert, _, clip := loadTestTokenizers(t)
	if _, err := bert.EncodePairBatch([]string{"a"}, nil, Options{}); err == nil || !strings.Contains(err.Error(), "1 first texts but 0 second") {
		t.Errorf("mismatched pair batch: err = %v", err)
	}
	if _, err := bert.EncodeWith("a", Options{MaxLength: -1}); err == nil || !strings.Contains(err.Error(), "negative MaxLength") {
		t.Errorf("negative MaxLength: err = %v", err)
	}
	if _, err := ParseTruncation("longest"); err == nil {
		t.Error("ParseTruncation accepted an unknown name")
	}
	long := strings.Repeat("word ", 100)
	if _, err := clip.OpenAITokenize([]string{long}, 77, false); err == nil || !strings.Contains(err.Error(), "more than the context length 77") {
		t.Errorf("OpenAITokenize without truncate: err = %v", err)
	}
	if _, err := LoadBERT(t.TempDir()); err == nil || !strings.Contains(err.Error(), "vocab.txt") {
		t.Errorf("LoadBERT on an empty directory: err = %v", err)
	}
}

func TestSpecialSplitter(t *testing.T) {
	s := newSpecialSplitter([]string{"[SEP]", "[SEP]x", "<a>"})
	got := s.split("a[SEP]xb<a><a>[SE")
	want := []piece{{"a", false}, {"[SEP]x", true}, {"b", false}, {"<a>", true}, {"<a>", true}, {"[SE", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("split = %v, want %v", got, want)
	}
}

func TestPythonLower(t *testing.T) {
	tests := []struct{ in, whole, chars string }{
		{"ΟΔΟΣ", "οδος", "οδοσ"},
		{"ΣΑ", "σα", "σα"},
		{"Σ", "σ", "σ"},
		{"ΑΣ'Β", "ασ'β", "ασ'β"},
		{"İstanbul", "i\u0307stanbul", "i\u0307stanbul"},
		{"ABC def", "abc def", "abc def"},
	}
	for _, tc := range tests {
		if got := pyunicode.Lower(tc.in); got != tc.whole {
			t.Errorf("pyunicode.Lower(%q) = %q, want %q", tc.in, got, tc.whole)
		}
		if got := pyunicode.LowerChars(tc.in); got != tc.chars {
			t.Errorf("pyunicode.LowerChars(%q) = %q, want %q", tc.in, got, tc.chars)
		}
	}
}

func TestFixText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ã©tÃ©", "été"},
		{"donâ€™t", "don't"},
		{"&EACUTE;t&eacute; &amp; &#233;", "Été & é"},
		{"a < b &amp; c", "a < b &amp; c"},
		{"&LTIMES; &NTILDE; &ltimes;", "&LTIMES; Ñ ⋉"},
		{"line1 &lt;\nline2 &amp;", "line1 <\nline2 &"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"ﬁne ＡＢＣ\u3000x", "fine ABC x"},
		{"a\u0096b", "a–b"},
		{"e\u0301", "é"},
		{"x\r\ny\u2028z", "x\ny\nz"},
		{"\ufeffbom\x00\x07", "bom"},
		{"naïve café", "naïve café"},
	}
	for _, tc := range tests {
		if got := fixText(tc.in); got != tc.want {
			t.Errorf("fixText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCLIPPattern(t *testing.T) {
	got := clipWords("it's <|endoftext|>!<|endoftext|> a1b2 ...x 'LL", nil)
	want := []string{"it", "'s", "<|endoftext|>", "!<|", "endoftext", "|>", "a", "1", "b", "2", "...", "x", "'LL"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("clipWords = %q, want %q", got, want)
	}
}

func TestConcurrentEncode(t *testing.T) {
	bert, albert, clip := loadTestTokenizers(t)
	texts := []string{"Hello, world!", "Café naïve résumé", "The quick brown fox jumps over the lazy dog.", "中文 and 한국어 😀"}
	encoders := []Encoder{bert, albert, clip}
	want := make([][]Encoding, len(encoders))
	for i, enc := range encoders {
		for _, text := range texts {
			want[i] = append(want[i], enc.Encode(text))
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := range 20 {
				i := (g + rep) % len(encoders)
				for j, text := range texts {
					if got := encoders[i].Encode(text); !reflect.DeepEqual(got, want[i][j]) {
						t.Errorf("encoder %d text %d differs under concurrency", i, j)
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestDecodeUTF8Replace(t *testing.T) {
	// Python: bytes.decode("utf-8", "replace").
	tests := []struct {
		in   []byte
		want string
	}{
		{[]byte("abc"), "abc"},
		{[]byte{0xe2, 0x82, 'x'}, "\ufffdx"},
		{[]byte{0xff, 0xfe}, "\ufffd\ufffd"},
		{[]byte{0xed, 0xa0, 0x80}, "\ufffd\ufffd\ufffd"},
		{[]byte{0xf0, 0x9f, 0x98}, "\ufffd"},
		{[]byte{0xc3, 0xa9, 0xc3}, "é\ufffd"},
	}
	for _, tc := range tests {
		if got := decodeUTF8Replace(tc.in); got != tc.want {
			t.Errorf("decodeUTF8Replace(% x) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDecodeRejectsBadIDs(t *testing.T) {
	bert, albert, clip := loadTestTokenizers(t)
	for _, enc := range []Encoder{bert, albert, clip} {
		if _, err := enc.Decode([]int{5, -1}); err == nil || !strings.Contains(err.Error(), "id -1 at position 1") {
			t.Errorf("%T.Decode: err = %v", enc, err)
		}
		if _, err := enc.Decode([]int{enc.VocabSize()}); err == nil {
			t.Errorf("%T.Decode accepted id %d", enc, enc.VocabSize())
		}
	}
}

// TestLowerCaseBeforeSpecialSplit: HF lower-cases the text outside special
// tokens before it looks for them, so an upper-case spelling of ALBERT's
// "<pad>" becomes the special token, while BERT's upper-case specials are
// not made by lower-casing.
func TestLowerCaseBeforeSpecialSplit(t *testing.T) {
	bert, albert, _ := loadTestTokenizers(t)
	if got, want := albert.Tokenize("x <PAD> [MASK]"), []string{"▁x", "<pad>", "[MASK]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ALBERT = %q, want %q", got, want)
	}
	if got, want := bert.Tokenize("[cls] [MASK]"), []string{"[", "cl", "##s", "]", "[MASK]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("BERT = %q, want %q", got, want)
	}
}

func TestPyUnescapeHTML(t *testing.T) {
	// Values of Python 3's html.unescape.
	tests := []struct{ in, want string }{
		{"&amp", "&"}, {"&ampx", "&x"}, {"&notit;", "¬it;"}, {"&#39;", "'"}, {"&#x27", "'"},
		{"&#0;", "\ufffd"}, {"&#128;", "€"}, {"&#x81;", "\u0081"}, {"&#1;", ""}, {"&#xFDD0;", ""},
		{"&#x1FFFF;", ""}, {"&#13;", "\r"}, {"&foo;", "&foo;"}, {"&AMP;", "&"}, {"&#xD800;", "\ufffd"},
		{"&#x110000;", "\ufffd"}, {"&#99999999999999999999999;", "\ufffd"}, {"&&#1;amp;", "&amp;"},
		{"& ;&#;&#x;", "& ;&#;&#x;"}, {"a&lt;b&gt;", "a<b>"}, {"&amp-x", "&-x"},
	}
	for _, tc := range tests {
		if got := pyUnescapeHTML(tc.in); got != tc.want {
			t.Errorf("pyUnescapeHTML(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestInfiniteModelMaxLength: with max_length unset and model_max_length
// 1e30, HF neither truncates nor pads to max_length.
func TestInfiniteModelMaxLength(t *testing.T) {
	cfg := hfConfig{"model_max_length": []byte("1e+30")}
	bert, err := newBERT("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\n", cfg)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := bert.EncodeBatch([]string{"a a a", "a"}, Options{Truncation: LongestFirst, Padding: PadMaxLength})
	if err != nil {
		t.Fatal(err)
	}
	if batch[0].Len() != 5 || batch[1].Len() != 3 {
		t.Errorf("lengths %d, %d; want 5, 3 (no truncation, no padding)", batch[0].Len(), batch[1].Len())
	}
	batch, err = bert.EncodeBatch([]string{"a a a", "a"}, Options{Truncation: LongestFirst, MaxLength: 4, Padding: PadMaxLength})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 5, 3, 0}; !reflect.DeepEqual(batch[1].IDs, want) || batch[0].Len() != 4 {
		t.Errorf("MaxLength 4: %v and %v", batch[0].IDs, batch[1].IDs)
	}
	if _, err := bert.EncodeBatch([]string{"a"}, Options{MaxLength: MaxSequenceLength + 1, Padding: PadMaxLength}); err == nil {
		t.Error("MaxLength above MaxSequenceLength accepted")
	}
}
