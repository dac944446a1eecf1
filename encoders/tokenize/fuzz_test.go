package tokenize

import (
	"encoding/binary"
	"math"
	"testing"
)

var fuzzSeeds = []string{
	"Hello, world!", "", " ", "Café naïve", "don't [SEP] [MASK]x", "<|endoftext|>!<|startoftext|>",
	"Ã©tÃ© &amp; &lt;", "\x00\x07\ufffd\xff\xfe", "中文 한국어 😀🎉", "9,000,000 1,", "ΟΔΟΣ İ ﬁ ＡＢＣ",
}

// checkEncoding verifies the invariants every encoding must hold.
func checkEncoding(t *testing.T, name string, e Encoding, vocab int, token func(int) string) {
	t.Helper()
	n := len(e.IDs)
	if len(e.Tokens) != n || len(e.TypeIDs) != n || len(e.AttentionMask) != n {
		t.Fatalf("%s: lengths %d ids, %d tokens, %d types, %d mask", name, n, len(e.Tokens), len(e.TypeIDs), len(e.AttentionMask))
	}
	for i, id := range e.IDs {
		if id < 0 || id >= vocab {
			t.Fatalf("%s: id %d outside the vocabulary of %d", name, id, vocab)
		}
		if e.Tokens[i] != token(id) {
			t.Fatalf("%s: token %q for id %d, want %q", name, e.Tokens[i], id, token(id))
		}
		if e.TypeIDs[i] != 0 && e.TypeIDs[i] != 1 {
			t.Fatalf("%s: type id %d", name, e.TypeIDs[i])
		}
	}
}

func fuzzEncoder(f *testing.F, pick func(t *testing.T) Encoder) {
	for _, s := range fuzzSeeds {
		f.Add(s, "second text", uint8(8))
	}
	f.Fuzz(func(t *testing.T, a, b string, maxLen uint8) {
		enc := pick(t)
		vocab := enc.VocabSize()
		checkEncoding(t, "single", enc.Encode(a), vocab, enc.Token)
		pair := enc.EncodePair(a, b)
		checkEncoding(t, "pair", pair, vocab, enc.Token)
		if _, err := enc.Decode(pair.IDs); err != nil {
			t.Fatal(err)
		}
		for _, s := range []Truncation{LongestFirst, OnlyFirst, OnlySecond} {
			opt := Options{Truncation: s, MaxLength: int(maxLen)%40 + 1}
			e, err := enc.EncodePairWith(a, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkEncoding(t, "truncated pair", e, vocab, enc.Token)
		}
		batch, err := enc.EncodeBatch([]string{a, b}, Options{Truncation: LongestFirst, MaxLength: int(maxLen)%40 + 3, Padding: PadMaxLength})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range batch {
			checkEncoding(t, "padded", e, vocab, enc.Token)
			// Truncation may be refused (HF semantics) but never grows the input.
			if e.Len() < int(maxLen)%40+3 {
				t.Fatalf("padded length %d below %d", e.Len(), int(maxLen)%40+3)
			}
		}
	})
}

func FuzzBERT(f *testing.F) {
	fuzzEncoder(f, func(t *testing.T) Encoder { b, _, _ := loadTestTokenizers(t); return b })
}

func FuzzALBERT(f *testing.F) {
	fuzzEncoder(f, func(t *testing.T) Encoder { _, a, _ := loadTestTokenizers(t); return a })
}

func FuzzCLIP(f *testing.F) {
	fuzzEncoder(f, func(t *testing.T) Encoder { _, _, c := loadTestTokenizers(t); return c })
}

// protoField appends one length-delimited or varint protobuf field.
func protoBytes(dst []byte, num int, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(num<<3|2))
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func protoVarint(dst []byte, num int, v uint64) []byte {
	dst = binary.AppendUvarint(dst, uint64(num<<3))
	return binary.AppendUvarint(dst, v)
}

// tinySPMModel serializes a small unigram ModelProto.
func tinySPMModel() []byte {
	type p struct {
		text  string
		score float32
		typ   uint64
	}
	var m []byte
	for _, pc := range []p{{"<unk>", 0, 2}, {"[CLS]", 0, 3}, {"▁", -1, 1}, {"▁a", -2, 1}, {"b", -3, 1}, {"ab", -2.5, 1}, {"(", 0, 4}, {"x", 0, 5}} {
		var piece []byte
		piece = protoBytes(piece, 1, []byte(pc.text))
		piece = binary.AppendUvarint(piece, 2<<3|5)
		piece = binary.LittleEndian.AppendUint32(piece, math.Float32bits(pc.score))
		piece = protoVarint(piece, 3, pc.typ)
		m = protoBytes(m, 1, piece)
	}
	m = protoBytes(m, 2, protoVarint(nil, 3, 1))
	var norm []byte
	norm = protoBytes(norm, 1, []byte("identity"))
	norm = protoVarint(norm, 3, 1)
	m = protoBytes(m, 3, norm)
	return m
}

func TestTinySPMModel(t *testing.T) {
	m, err := parseSPMModel(tinySPMModel())
	if err != nil {
		t.Fatal(err)
	}
	u, err := newSPMUnigram(m)
	if err != nil {
		t.Fatal(err)
	}
	// "▁ab" : "▁a"+"b" scores −5, "▁"+"ab" −3.5: the second wins. The
	// unknown "zz" is one merged piece; "(" is user-defined.
	got := u.encode("ab zz(b")
	want := []string{"▁", "ab", "▁", "zz", "(", "b"}
	if len(got) != len(want) {
		t.Fatalf("encode = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("encode = %q, want %q", got, want)
		}
	}
}

// FuzzSPMModel feeds hostile model files to the protobuf reader, the
// charsmap decoder and the encoder.
func FuzzSPMModel(f *testing.F) {
	f.Add(tinySPMModel(), "ab zz(b")
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, "x")
	f.Add(protoBytes(tinySPMModel(), 3, protoBytes(nil, 2, []byte{8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 'a', 0})), "a")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		m, err := parseSPMModel(data)
		if err != nil {
			return
		}
		u, err := newSPMUnigram(m)
		if err != nil {
			return
		}
		for _, p := range u.encode(text) {
			if id := u.pieceID(p); id < 0 || id >= len(u.pieces) {
				t.Fatalf("piece %q has id %d outside %d pieces", p, id, len(u.pieces))
			}
		}
	})
}
