package train

import "github.com/storyeval/storyeval/encoders/tokenize"

// padBatch pads encodings to the longest one as a batch for the training
// passes.
func padBatch(encs []tokenize.Encoding) *batchInput {
	S := 0
	for _, e := range encs {
		S = max(S, e.Len())
	}
	in := &batchInput{B: len(encs), S: S}
	for _, e := range encs {
		for t := 0; t < S; t++ {
			if t < e.Len() {
				in.ids = append(in.ids, e.IDs[t])
				in.types = append(in.types, e.TypeIDs[t])
				in.keyValid = append(in.keyValid, e.AttentionMask[t] != 0)
			} else {
				in.ids = append(in.ids, 0)
				in.types = append(in.types, 0)
				in.keyValid = append(in.keyValid, false)
			}
		}
	}
	return in
}
