package tokenize

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// spmUnigram is sentencepiece's unigram model (EncodeOptimized, 0.1.97):
// the Viterbi path of highest total score over the pieces of the
// normalized text, one unknown piece per character no piece covers.
type spmUnigram struct {
	pieces []spmPiece
	// prefixes maps every byte prefix of the searched pieces (normal,
	// user-defined, unused) to the piece's id, or to −1 for a prefix that is
	// no piece: the Viterbi scan stops at the first absent prefix, as a walk
	// down sentencepiece's trie does.
	prefixes   map[string]int32
	all        map[string]int // every piece, for PieceToId
	maxLen     int            // bytes of the longest searched piece
	unkID      int
	unkScore   float32 // min normal score − 10 (kUnkPenalty)
	userScore  float32 // max normal score, the per-byte bonus of user-defined pieces
	normalizer *spmNormalizer
}

// MaxSPMPieceBytes bounds the total length of the pieces a SentencePiece
// model may search (about 0.2 MB for ALBERT's 30,000, 2 MB for the largest
// public vocabularies), which bounds the prefix index built from them.
const MaxSPMPieceBytes = 4 << 20

func newSPMUnigram(m *spmModel) (*spmUnigram, error) {
	total := 0
	for _, p := range m.pieces {
		total += len(p.text)
	}
	if total > MaxSPMPieceBytes {
		return nil, fmt.Errorf("pieces total %d bytes, above the limit of %d", total, MaxSPMPieceBytes)
	}
	if m.modelType != 1 {
		return nil, errors.New("only unigram sentencepiece models are supported")
	}
	if m.byteFallback {
		return nil, errors.New("byte-fallback sentencepiece models are not supported")
	}
	u := &spmUnigram{pieces: m.pieces, prefixes: map[string]int32{}, all: map[string]int{}, unkID: -1}
	// Matches the reference implementation, which starts the maximum at
	// FLT_MIN (the smallest normal float), so a model whose scores are all
	// negative gives user-defined pieces a bonus of about zero per byte.
	minScore, maxScore := float32(math.MaxFloat32), float32(fltMin)
	for i, p := range m.pieces {
		if _, dup := u.all[p.text]; dup {
			return nil, errors.New("duplicate piece " + quoteGo(p.text))
		}
		u.all[p.text] = i
		switch p.typ {
		case pieceNormal, pieceUserDefined, pieceUnused:
			if p.text == "" {
				return nil, errors.New("empty piece")
			}
			for l := 1; l < len(p.text); l++ {
				if _, ok := u.prefixes[p.text[:l]]; !ok {
					u.prefixes[p.text[:l]] = -1
				}
			}
			u.prefixes[p.text] = int32(i)
			u.maxLen = max(u.maxLen, len(p.text))
		case pieceUnknown:
			u.unkID = i
		}
		if p.typ == pieceNormal {
			minScore, maxScore = min(minScore, p.score), max(maxScore, p.score)
		}
	}
	if u.unkID < 0 {
		return nil, errors.New("model has no unknown piece")
	}
	u.unkScore = minScore - 10
	u.userScore = maxScore
	var err error
	u.normalizer, err = newSPMNormalizer(m)
	return u, err
}

// encode returns the pieces of text, as SentencePieceProcessor::Encode with
// out_type=str: normalization, Viterbi, then runs of unknown pieces merged
// into one.
func (u *spmUnigram) encode(text string) []string {
	norm := u.normalizer.normalize(text)
	if norm == "" {
		return nil
	}
	type node struct {
		id     int
		score  float32
		start  int
		filled bool
	}
	best := make([]node, len(norm)+1)
	for start := 0; start < len(norm); {
		_, charLen := utf8.DecodeRuneInString(norm[start:])
		here := best[start].score
		single := false
		for end := start + 1; end <= len(norm) && end-start <= u.maxLen; end++ {
			v, ok := u.prefixes[norm[start:end]]
			if !ok {
				break
			}
			if v < 0 {
				continue
			}
			id := int(v)
			p := u.pieces[id]
			if p.typ == pieceUnused {
				continue
			}
			var score float32
			if p.typ == pieceUserDefined {
				// Matches the reference implementation, which gives a
				// user-defined piece length·max_score − 0.1 (in double,
				// stored as float) so that it always wins.
				score = float32(float64(float32(end-start)*u.userScore) - 0.1)
			} else {
				score = p.score
			}
			cand := score + here
			if t := &best[end]; !t.filled || cand > t.score {
				*t = node{id: id, score: cand, start: start, filled: true}
			}
			if end-start == charLen {
				single = true
			}
		}
		if !single {
			cand := u.unkScore + here
			if t := &best[start+charLen]; !t.filled || cand > t.score {
				*t = node{id: u.unkID, score: cand, start: start, filled: true}
			}
		}
		start += charLen
	}
	var rev []int // piece boundaries, from the end
	for end := len(norm); end > 0; end = best[end].start {
		rev = append(rev, end)
	}
	out := make([]string, 0, len(rev))
	prevUnk := false
	start := 0
	for i := len(rev) - 1; i >= 0; i-- {
		end := rev[i]
		isUnk := best[end].id == u.unkID
		if isUnk && prevUnk {
			out[len(out)-1] += norm[start:end]
		} else {
			out = append(out, norm[start:end])
		}
		prevUnk = isUnk
		start = end
	}
	return out
}

// pieceID is SentencePieceProcessor::PieceToId: the id of any piece, the
// unknown id otherwise.
func (u *spmUnigram) pieceID(piece string) int {
	if id, ok := u.all[piece]; ok {
		return id
	}
	return u.unkID
}

// fltMin is C's FLT_MIN.
const fltMin = 1.17549435082228750797e-38

func quoteGo(s string) string { return "\"" + s + "\"" }
