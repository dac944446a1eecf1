package apmodel

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
)

// Encode writes m in the package's gzip-compressed format. Classes must be
// ascending and at most 255; features are written in ascending key order.
func Encode(w io.Writer, m *Model) error {
	if len(m.Classes) > maxClasses {
		return fmt.Errorf("apmodel: %d classes, at most %d can be encoded", len(m.Classes), maxClasses)
	}
	if !sort.StringsAreSorted(m.Classes) {
		return fmt.Errorf("apmodel: classes are not in ascending order")
	}
	var buf []byte
	buf = binary.AppendUvarint(append(buf, magic...), uint64(len(m.Classes)))
	for _, c := range m.Classes {
		buf = appendString(buf, c)
	}

	words := make([]string, 0, len(m.TagDict))
	for word := range m.TagDict {
		words = append(words, word)
	}
	sort.Strings(words)
	buf = binary.AppendUvarint(buf, uint64(len(words)))
	prev := ""
	for _, word := range words {
		buf = appendFrontCoded(buf, prev, word)
		buf = append(buf, m.TagDict[word])
		prev = word
	}

	feats := append([]Feature(nil), m.Features...)
	sort.Slice(feats, func(i, j int) bool { return feats[i].Key < feats[j].Key })
	buf = binary.AppendUvarint(buf, uint64(len(feats)))
	prev = ""
	for i, f := range feats {
		if i > 0 && f.Key == prev {
			return fmt.Errorf("apmodel: feature %q appears twice", f.Key)
		}
		buf = appendFrontCoded(buf, prev, f.Key)
		prev = f.Key
	}
	for _, f := range feats {
		if len(f.Classes) != len(f.Milli) {
			return fmt.Errorf("apmodel: feature %q has %d classes but %d weights", f.Key, len(f.Classes), len(f.Milli))
		}
		buf = binary.AppendUvarint(buf, uint64(len(f.Classes)))
	}
	for _, f := range feats {
		last := -1
		for _, c := range f.Classes {
			if int(c) <= last || int(c) >= len(m.Classes) {
				return fmt.Errorf("apmodel: feature %q: class indices must ascend below %d", f.Key, len(m.Classes))
			}
			buf = append(buf, byte(int(c)-last-1))
			last = int(c)
		}
	}
	for _, f := range feats {
		for _, v := range f.Milli {
			buf = append(buf, byte(zigzag(v)))
		}
	}
	for _, f := range feats {
		for _, v := range f.Milli {
			buf = binary.AppendUvarint(buf, uint64(zigzag(v)>>8))
		}
	}

	bw := bufio.NewWriter(w)
	zw, err := gzip.NewWriterLevel(bw, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(buf); err != nil {
		return fmt.Errorf("apmodel: writing model: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("apmodel: writing model: %w", err)
	}
	return bw.Flush()
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}

func appendFrontCoded(buf []byte, prev, s string) []byte {
	n := 0
	for n < len(prev) && n < len(s) && prev[n] == s[n] {
		n++
	}
	buf = binary.AppendUvarint(buf, uint64(n))
	return appendString(buf, s[n:])
}

// zigzag maps signed to unsigned so that small magnitudes get small codes.
func zigzag(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }

func unzigzag(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }
