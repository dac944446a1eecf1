package tokenize

import "github.com/storyeval/storyeval/internal/parallel"

// parallelChunk is the fewest texts one goroutine of EncodeBatchParallel
// encodes.
const parallelChunk = 64

// EncodeBatchParallel encodes texts as enc.EncodeBatch(texts, opt) does,
// cut into one contiguous part per CPU of at least 64 texts (the
// tokenizers are safe for concurrent use). padAlong, when not nil, is encoded with every chunk and
// dropped from the result, so that PadLongest pads every text to at least
// its length: given the longest text of a file, the file's batches come
// out as one batch of all its texts would. The error is the first
// failing chunk's.
func EncodeBatchParallel(enc Encoder, texts []string, opt Options, padAlong *string) ([]Encoding, error) {
	out := make([]Encoding, len(texts))
	errs := make([]error, parallel.Workers(len(texts), parallelChunk))
	parallel.Chunks(len(texts), parallelChunk, func(w, lo, hi int) {
		chunk := texts[lo:hi:hi]
		if padAlong != nil {
			chunk = append(chunk, *padAlong)
		}
		var e []Encoding
		if e, errs[w] = enc.EncodeBatch(chunk, opt); errs[w] == nil {
			copy(out[lo:hi], e)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
