package apmodel

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Encode writes m in the package's gzip-compressed format. Classes must be
// ascending and at most 255; feature keys must be distinct.
func Encode(w io.Writer, m *Model) error {
	if len(m.Classes) > maxClasses {
		return fmt.Errorf("%d classes, at most %d can be encoded", len(m.Classes), maxClasses)
	}
	if !sort.StringsAreSorted(m.Classes) {
		return fmt.Errorf("classes are not in ascending order")
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

	byKey := make(map[string]*Feature, len(m.Features))
	for i := range m.Features {
		f := &m.Features[i]
		if byKey[f.Key] != nil {
			return fmt.Errorf("feature %q appears twice", f.Key)
		}
		if len(f.Classes) != len(f.Milli) {
			return fmt.Errorf("feature %q has %d classes but %d weights", f.Key, len(f.Classes), len(f.Milli))
		}
		byKey[f.Key] = f
	}
	g := groupKeys(m.Features)
	buf = appendFrontCodedList(buf, g.vocab)
	vocabID := make(map[string]int, len(g.vocab))
	for i, v := range g.vocab {
		vocabID[v] = i
	}
	for _, ws := range g.wordTemplates {
		buf = appendIDs(buf, ws, vocabID)
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.tagWords)))
	for _, tw := range g.tagWords {
		buf = appendString(buf, tw.tag)
		buf = appendIDs(buf, tw.words, vocabID)
	}
	buf = appendFrontCodedList(buf, g.other)

	feats := make([]*Feature, 0, len(m.Features))
	for _, key := range g.keys() {
		feats = append(feats, byKey[key])
	}
	for _, f := range feats {
		buf = binary.AppendUvarint(buf, uint64(len(f.Classes)))
	}
	for _, f := range feats {
		last := -1
		for _, c := range f.Classes {
			if int(c) <= last || int(c) >= len(m.Classes) {
				return fmt.Errorf("feature %q: class indices must ascend below %d", f.Key, len(m.Classes))
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
		return fmt.Errorf("writing model: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("writing model: %w", err)
	}
	return bw.Flush()
}

// keyGroups sorts feature keys into the groups the format stores them in.
type keyGroups struct {
	vocab         []string                     // every word of the two groups below, ascending
	wordTemplates [len(wordTemplates)][]string // words of "i word X" etc., ascending
	tagWords      []tagWords                   // "i-1 tag+i word T W" by T, ascending
	other         []string                     // every other key, ascending
}

type tagWords struct {
	tag   string
	words []string
}

func groupKeys(feats []Feature) *keyGroups {
	g := &keyGroups{}
	vocab := map[string]bool{}
	byTag := map[string][]string{}
	for _, f := range feats {
		if i, word, ok := cutWordTemplate(f.Key); ok {
			g.wordTemplates[i] = append(g.wordTemplates[i], word)
			vocab[word] = true
		} else if tag, word, ok := cutTagWordTemplate(f.Key); ok {
			byTag[tag] = append(byTag[tag], word)
			vocab[word] = true
		} else {
			g.other = append(g.other, f.Key)
		}
	}
	for v := range vocab {
		g.vocab = append(g.vocab, v)
	}
	slices.Sort(g.vocab)
	for i := range g.wordTemplates {
		slices.Sort(g.wordTemplates[i])
	}
	for tag, ws := range byTag {
		slices.Sort(ws)
		g.tagWords = append(g.tagWords, tagWords{tag, ws})
	}
	sort.Slice(g.tagWords, func(i, j int) bool { return g.tagWords[i].tag < g.tagWords[j].tag })
	slices.Sort(g.other)
	return g
}

// keys lists the feature keys in the order the format stores their weights.
func (g *keyGroups) keys() []string {
	var keys []string
	for i, ws := range g.wordTemplates {
		for _, w := range ws {
			keys = append(keys, wordTemplates[i]+" "+w)
		}
	}
	for _, tw := range g.tagWords {
		for _, w := range tw.words {
			keys = append(keys, tagWordTemplate+" "+tw.tag+" "+w)
		}
	}
	return append(keys, g.other...)
}

// cutWordTemplate splits "i word X" and the like into the template's index
// in wordTemplates and X.
func cutWordTemplate(key string) (int, string, bool) {
	for i, name := range wordTemplates {
		if w, ok := strings.CutPrefix(key, name+" "); ok {
			return i, w, true
		}
	}
	return 0, "", false
}

// cutTagWordTemplate splits "i-1 tag+i word T W" at the first space after
// the name; joining the parts again restores the key whatever T and W hold.
func cutTagWordTemplate(key string) (tag, word string, ok bool) {
	rest, ok := strings.CutPrefix(key, tagWordTemplate+" ")
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, " ")
}

func appendIDs(buf []byte, words []string, id map[string]int) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(words)))
	last := -1
	for _, w := range words {
		buf = binary.AppendUvarint(buf, uint64(id[w]-last-1))
		last = id[w]
	}
	return buf
}

func appendFrontCodedList(buf []byte, strs []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(strs)))
	prev := ""
	for _, s := range strs {
		buf = appendFrontCoded(buf, prev, s)
		prev = s
	}
	return buf
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
