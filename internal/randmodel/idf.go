package randmodel

import (
	"encoding/binary"
	"math"
	"math/rand"
	"os"
)

// WriteIDFPickle writes an idf table as the RoViST release's idf_dict.pkl
// holds it — a pickled dict {noun: idf} — with a weight uniform in [1, 4)
// for each word. Pickle protocol 2: PROTO 2, EMPTY_DICT, MARK, then per
// word BINUNICODE key and BINFLOAT value, SETITEMS, STOP.
func WriteIDFPickle(path string, words []string, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	pk := []byte{0x80, 2, '}', '('}
	for _, w := range words {
		pk = append(pk, 'X')
		pk = binary.LittleEndian.AppendUint32(pk, uint32(len(w)))
		pk = append(pk, w...)
		pk = append(pk, 'G')
		pk = binary.BigEndian.AppendUint64(pk, math.Float64bits(1+3*rng.Float64()))
	}
	return os.WriteFile(path, append(pk, 'u', '.'), 0o644)
}
