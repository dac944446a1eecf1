package rovist

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// defaultIDFMaxBytes bounds an idf pickle when LoadIDF is not told
// otherwise (RoViST's idf_dict.pkl is a few hundred kilobytes).
const defaultIDFMaxBytes = 256 << 20

// IDF maps a noun to its inverse document frequency, the weight of its
// grounding recall in RoViST-VG. It is story.IDF: weights computed from a
// corpus with story.ComputeIDF (IDFOptions{AddOne: true} for the paper's
// formula) serve as they are.
type IDF = story.IDF

// LoadIDF reads RoViST's idf_dict.pkl, a pickled dict {noun: float}, with
// the project's pickle reader, which executes nothing. l bounds the file
// (MaxBytes 0: 256 MiB); a larger one fails with a *limits.TooLargeError.
func LoadIDF(path string, l limits.Limits) (IDF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("idf: %w", err)
	}
	defer f.Close()
	max := l.Bytes(defaultIDFMaxBytes)
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("idf %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &limits.TooLargeError{Name: "idf " + path, Limit: max}
	}
	return ParseIDF(data, path)
}

// ParseIDF decodes a pickled dict {str: float} (ints are accepted as
// Python would use them); name labels errors. Any other key or value type,
// a non-finite weight and a pickle of something else than a dict are
// errors.
func ParseIDF(data []byte, name string) (IDF, error) {
	v, err := checkpoint.DecodePickle(data, checkpoint.Options{MaxPickleBytes: max(defaultIDFMaxBytes, int64(len(data)))})
	if err != nil {
		return nil, fmt.Errorf("idf %s: %w", name, err)
	}
	d, ok := v.(*checkpoint.Dict)
	if !ok {
		return nil, fmt.Errorf("idf %s: the pickle holds a %T, not a dict {noun: float}", name, v)
	}
	idf := make(IDF, len(d.Items))
	for _, it := range d.Items {
		k, ok := it.Key.(string)
		if !ok {
			return nil, fmt.Errorf("idf %s: key %v is a %T, not a str", name, it.Key, it.Key)
		}
		var w float64
		switch x := it.Value.(type) {
		case float64:
			w = x
		case int64:
			w = float64(x)
		default:
			return nil, fmt.Errorf("idf %s: the weight of %q is a %T, not a float", name, k, it.Value)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("idf %s: the weight of %q is %v", name, k, w)
		}
		idf[k] = w
	}
	return idf, nil
}
