package apmodel

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Limits that bound what Decode accepts, so that corrupt input cannot make it
// allocate without bound.
const (
	// MaxDecodedBytes bounds the decompressed size of a model (NLTK's English
	// model decompresses to about 1.3 MB).
	MaxDecodedBytes = 16 << 20
	maxClasses      = 255
	maxStringBytes  = 1 << 16
	// maxStringTotal bounds the bytes of all decoded strings (keys, words)
	// together; NLTK's English model has about 1.5 MB.
	maxStringTotal = 64 << 20
)

// Decode reads a model written by Encode.
func Decode(compressed []byte) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("not a gzip stream: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, MaxDecodedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	if len(raw) > MaxDecodedBytes {
		return nil, fmt.Errorf("model decompresses to more than %d bytes", MaxDecodedBytes)
	}
	if !bytes.HasPrefix(raw, []byte(magic)) {
		return nil, errors.New("missing the model header")
	}
	d := &decoder{buf: raw[len(magic):]}
	m := d.model()
	if d.err != nil {
		return nil, fmt.Errorf("corrupt model at byte %d: %w", len(raw)-len(d.buf), d.err)
	}
	if len(d.buf) != 0 {
		return nil, fmt.Errorf("%d trailing bytes after the model", len(d.buf))
	}
	return m, nil
}

// decoder consumes buf; the first error sticks and later reads return zero
// values, so the section readers need no error plumbing.
type decoder struct {
	buf []byte
	err error
	// strBytes is the length of all strings built so far; front coding and
	// shared vocabulary words let a few input bytes stand for a long
	// string, so this, not the input size, bounds their memory.
	strBytes int
}

// countString adds n bytes of decoded strings and fails past maxStringTotal.
func (d *decoder) countString(n int) {
	d.strBytes += n
	if d.strBytes > maxStringTotal {
		d.fail("strings total more than %d bytes", maxStringTotal)
	}
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
	d.buf = nil
}

func (d *decoder) uvarint(max uint64, what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail("truncated or overlong varint (%s)", what)
		return 0
	}
	d.buf = d.buf[n:]
	if v > max {
		d.fail("%s is %d, at most %d allowed", what, v, max)
		return 0
	}
	return v
}

func (d *decoder) bytes(n uint64, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.buf)) {
		d.fail("truncated %s", what)
		return nil
	}
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b
}

func (d *decoder) frontCoded(prev string, what string) string {
	shared := d.uvarint(uint64(len(prev)), what+" shared prefix")
	rest := d.bytes(d.uvarint(maxStringBytes, what+" length"), what)
	d.countString(int(shared) + len(rest))
	if d.err != nil {
		return ""
	}
	return prev[:shared] + string(rest)
}

// frontCodedList reads a count and that many strictly ascending front-coded
// strings.
func (d *decoder) frontCodedList(what string) []string {
	n := d.uvarint(uint64(len(d.buf)), "number of "+what+"s")
	var out []string
	prev := ""
	for i := uint64(0); i < n && d.err == nil; i++ {
		s := d.frontCoded(prev, what)
		if i > 0 && s <= prev {
			d.fail("%ss are not strictly ascending at %q", what, s)
		}
		out = append(out, s)
		prev = s
	}
	return out
}

// ids reads a count and that many delta-coded, strictly ascending indexes
// into vocab, and returns the words.
func (d *decoder) ids(vocab []string, what string) []string {
	n := d.uvarint(uint64(len(d.buf)), "number of "+what+" features")
	var out []string
	last := -1
	for i := uint64(0); i < n && d.err == nil; i++ {
		id := uint64(last+1) + d.uvarint(uint64(len(vocab)), what+" word index")
		if d.err == nil && id >= uint64(len(vocab)) {
			d.fail("%s word index %d of %d", what, id, len(vocab))
		}
		if d.err == nil {
			out = append(out, vocab[id])
			last = int(id)
		}
	}
	return out
}

func (d *decoder) model() *Model {
	m := &Model{}
	nClasses := d.uvarint(maxClasses, "number of classes")
	for i := uint64(0); i < nClasses && d.err == nil; i++ {
		c := string(d.bytes(d.uvarint(maxStringBytes, "class length"), "class"))
		if i > 0 && c <= m.Classes[i-1] {
			d.fail("classes are not strictly ascending at %q", c)
		}
		m.Classes = append(m.Classes, c)
	}

	// Every entry takes at least one byte, which bounds the counts below by
	// what is left of the input.
	nWords := d.uvarint(uint64(len(d.buf)), "number of tag-dictionary words")
	m.TagDict = make(map[string]uint8, min(nWords, 1<<16))
	prev := ""
	for i := uint64(0); i < nWords && d.err == nil; i++ {
		w := d.frontCoded(prev, "tag-dictionary word")
		c := d.bytes(1, "tag-dictionary class")
		if d.err == nil && int(c[0]) >= len(m.Classes) {
			d.fail("tag-dictionary word %q has class %d of %d", w, c[0], len(m.Classes))
		}
		if d.err == nil {
			m.TagDict[w] = c[0]
		}
		prev = w
	}

	// Slices grow as entries are read rather than being sized by the
	// counts, so memory stays proportional to the input actually present;
	// the keys share one string, bounded by maxStringTotal.
	vocab := d.frontCodedList("vocabulary word")
	var keys []byte
	var ends []int
	// addKey appends the key prefix + " " + word; prefix is a template name,
	// or a name and a tag joined by a space.
	addKey := func(prefix, word string) {
		keys = append(append(append(keys, prefix...), ' '), word...)
		ends = append(ends, len(keys))
		d.countString(len(prefix) + 1 + len(word))
	}
	for _, name := range wordTemplates {
		for _, w := range d.ids(vocab, name) {
			addKey(name, w)
		}
	}
	nTags := d.uvarint(uint64(len(d.buf)), "number of tags with tag+word features")
	for i := uint64(0); i < nTags && d.err == nil; i++ {
		prefix := tagWordTemplate + " " + string(d.bytes(d.uvarint(maxStringBytes, "tag length"), "tag"))
		for _, w := range d.ids(vocab, tagWordTemplate) {
			addKey(prefix, w)
		}
	}
	others := d.frontCodedList("feature key")
	if d.err != nil {
		return m
	}
	all := string(keys)
	m.Features = make([]Feature, len(ends)+len(others))
	from := 0
	for i, end := range ends {
		m.Features[i].Key = all[from:end]
		from = end
	}
	for i, k := range others {
		m.Features[len(ends)+i].Key = k
	}

	counts := make([]int, 0, min(len(m.Features), len(d.buf)))
	total := 0
	for range m.Features {
		n := int(d.uvarint(uint64(len(m.Classes)), "number of weights of a feature"))
		total += n
		// Each weight takes at least two more bytes (class delta, low byte).
		if d.err == nil && total > len(d.buf) {
			d.fail("truncated weights")
		}
		if d.err != nil {
			return m
		}
		counts = append(counts, n)
	}
	if d.err != nil || total > len(d.buf) {
		d.fail("truncated weights")
		return m
	}
	// One backing array for all features' classes and one for the weights.
	classes, milli := make([]uint8, total), make([]int32, total)
	from = 0
	for i, n := range counts {
		m.Features[i].Classes = classes[from : from+n : from+n]
		m.Features[i].Milli = milli[from : from+n : from+n]
		from += n
	}
	for i := range m.Features {
		f := &m.Features[i]
		last := -1
		for j := range f.Classes {
			c := last + 1 + int(d.bytes(1, "class delta")[0])
			if c >= len(m.Classes) {
				d.fail("feature %q: class index %d of %d", f.Key, c, len(m.Classes))
				return m
			}
			f.Classes[j] = uint8(c)
			last = c
		}
	}
	low := d.bytes(uint64(total), "weights")
	if d.err != nil {
		return m
	}
	k := 0
	for i := range m.Features {
		f := &m.Features[i]
		for j := range f.Milli {
			hi := d.uvarint(math.MaxUint32>>8, "weight")
			f.Milli[j] = unzigzag(uint32(hi)<<8 | uint32(low[k]))
			k++
		}
	}
	return m
}
