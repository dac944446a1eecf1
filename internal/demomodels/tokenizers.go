package demomodels

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// words returns the distinct lower-case words (runs of letters and
// digits) of texts, sorted: what the demo's tokenizers cover with whole
// pieces.
func words(texts []string) []string {
	var out []string
	for _, t := range texts {
		out = append(out, strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// printableASCII are the single characters every demo vocabulary holds,
// so that any ASCII text tokenizes without unknown pieces.
func printableASCII() []string {
	var out []string
	for c := '!'; c <= '~'; c++ {
		out = append(out, string(c))
	}
	return out
}

// writeWordPiece writes a BERT WordPiece vocab.txt into dir: the specials
// BertTokenizer expects, the printable ASCII characters with their "##"
// continuations, then the demo's words; it returns the vocabulary size.
func writeWordPiece(dir string, ws []string) (int, error) {
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	chars := printableASCII()
	vocab = append(vocab, chars...)
	for _, c := range chars {
		vocab = append(vocab, "##"+c)
	}
	for _, w := range ws {
		if len(w) > 1 && !slices.Contains(chars, w) {
			vocab = append(vocab, w)
		}
	}
	return len(vocab), os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(vocab, "\n")+"\n"), 0o644)
}

// SentencePiece piece types (sentencepiece_model.proto).
const (
	spmNormal  = 1
	spmUnknown = 2
	spmControl = 3
)

// writeSentencePiece writes an ALBERT spiece.model into dir: a unigram
// SentencePiece ModelProto serialized by hand (fields 1 pieces, 2
// trainer_spec with model_type 1, 3 normalizer_spec without a charsmap,
// i.e. the identity normalizer) holding ALBERT's specials, "▁", the
// printable ASCII characters and "▁word" for each demo word, scored so
// that longer pieces win. It returns the number of pieces.
func writeSentencePiece(dir string, ws []string) (int, error) {
	type piece struct {
		text  string
		score float32
		typ   uint64
	}
	pieces := []piece{{"<pad>", 0, spmControl}, {"<unk>", 0, spmUnknown}, {"[CLS]", 0, spmControl}, {"[SEP]", 0, spmControl}, {"[MASK]", 0, spmControl}, {"▁", -2, spmNormal}}
	seen := map[string]bool{"▁": true}
	add := func(text string, score float32) {
		if !seen[text] {
			seen[text] = true
			pieces = append(pieces, piece{text, score, spmNormal})
		}
	}
	for _, c := range printableASCII() {
		add(c, -10)
	}
	for _, w := range ws {
		add("▁"+w, -1/float32(len(w)))
	}
	var model []byte
	for _, p := range pieces {
		var b []byte
		b = appendBytes(b, 1, []byte(p.text))
		b = binary.AppendUvarint(b, 2<<3|5)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(p.score))
		b = binary.AppendUvarint(b, 3<<3|0)
		b = binary.AppendUvarint(b, p.typ)
		model = appendBytes(model, 1, b)
	}
	trainer := binary.AppendUvarint(binary.AppendUvarint(nil, 3<<3|0), 1)
	model = appendBytes(model, 2, trainer)
	model = appendBytes(model, 3, appendBytes(nil, 1, []byte("identity")))
	return len(pieces), os.WriteFile(filepath.Join(dir, "spiece.model"), model, 0o644)
}

// appendBytes appends a length-delimited protobuf field.
func appendBytes(b []byte, field int, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// writeCLIPBPE writes a CLIP byte-level BPE vocab.json and merges.txt into
// dir: the 256 byte symbols of GPT-2's byte-to-unicode table, each also
// with the end-of-word mark "</w>", the merges that build every demo word
// left to right, and CLIP's two specials; it returns the vocabulary size.
func writeCLIPBPE(dir string, ws []string) (int, error) {
	syms := byteSymbols()
	var vocab []string
	vocab = append(vocab, syms...)
	for _, s := range syms {
		vocab = append(vocab, s+"</w>")
	}
	have := map[string]bool{}
	for _, v := range vocab {
		have[v] = true
	}
	merges := []string{"#version: 0.2"}
	for _, w := range ws {
		var parts []string
		for _, c := range []byte(w) {
			parts = append(parts, syms[c])
		}
		parts[len(parts)-1] += "</w>"
		cur := parts[0]
		for _, p := range parts[1:] {
			m := cur + " " + p
			cur += p
			if !have[cur] {
				have[cur] = true
				vocab = append(vocab, cur)
				merges = append(merges, m)
			}
		}
	}
	vocab = append(vocab, "<|startoftext|>", "<|endoftext|>")
	ids := make(map[string]int, len(vocab))
	for i, v := range vocab {
		ids[v] = i
	}
	data, err := json.Marshal(ids)
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.json"), data, 0o644); err != nil {
		return 0, err
	}
	return len(vocab), os.WriteFile(filepath.Join(dir, "merges.txt"), []byte(strings.Join(merges, "\n")+"\n"), 0o644)
}

// byteSymbols is GPT-2's bytes_to_unicode table, which CLIP's BPE uses:
// printable Latin-1 bytes stand for themselves, the others for the code
// points from 256 on, in byte order.
func byteSymbols() []string {
	out := make([]string, 256)
	n := 0
	for b := range 256 {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			out[b] = string(rune(b))
		} else {
			out[b] = string(rune(256 + n))
			n++
		}
	}
	return out
}
