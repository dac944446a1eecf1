package stylem

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/storyeval/storyeval/internal/gzipbound"
	"github.com/storyeval/storyeval/limits"
)

// Table file format, version 2. A file starts with the 8-byte magic
// "STYLEMTB" and a little-endian uint16 version, followed by a gzip stream
// of uvarint-encoded fields:
//
//	formula, ecdf kind, tokenization name (length + bytes)
//	#styles, then each style name (length + bytes)
//	#tokens, then each token (length + bytes); token ids are 1-based
//	#n-grams, #entries (all n-grams' together),
//	then for each n-gram: its prefix (0 for a unigram, else how many
//	places back the (n−1)-gram it extends is: 1 for the n-gram just
//	before), its last token id, #entries, then per entry: style index
//	(strictly increasing), df (≥ 1), CNG (8 bytes, IEEE-754 little endian)
//
// The n-grams are in the order of their token ids (see tableEncoder), so a
// prefix is near: its distance compresses better than its index. Version
// 1, still read, has no #entries, and its prefix is 1 + the index of the
// (n−1)-gram (which comes earlier), with n-grams in order of first
// appearance. #entries lets a reader size the entries exactly: growing
// them instead took a third more memory at the peak. The order changes no value or score. CNG values are stored
// bit for bit, so a saved table scores exactly as the table it was saved
// from.
const (
	tableMagic   = "STYLEMTB"
	tableVersion = 2
)

// defaultMaxTableBytes is the default limit on a table's decompressed size.
const defaultMaxTableBytes = 4 << 30

// WriteTo writes the table in the versioned binary format. It implements
// io.WriterTo. The n-grams are written in the order of their token ids
// (see tableEncoder), so the file does not depend on the order in which
// the table was built or read: a table built in memory and the same table
// built by WriteBuild are the same bytes. Sorting takes 24 bytes per n-gram
// on top of the table while it writes.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	e, err := newTableEncoder(w)
	if err != nil {
		return e.cw.n, err
	}
	e.head(t.formula, t.ecdf, t.step, t.styles, t.vocab.tokens, len(t.order), len(t.entStyle))
	perm := t.sortedNgrams()
	pos := make([]uint32, len(perm)) // pos[id]: the n-gram's place in the file
	for p, id := range perm {
		pos[id] = uint32(p)
	}
	for _, id := range perm {
		var prefix uint32
		if p := t.parent[id]; p != 0 {
			prefix = pos[p-1] + 1
		}
		lo, hi := t.off[id], t.off[id+1]
		e.ngram(prefix, t.last[id], t.entStyle[lo:hi], t.entDF[lo:hi], t.entCNG[lo:hi])
	}
	return e.close()
}

// sortedNgrams returns the n-gram ids ordered by their keys (token ids,
// compared position by position, a shorter n-gram before its extensions).
func (t *Table) sortedNgrams() []uint32 {
	keys := make([]ngramKey, len(t.order))
	for i := range keys {
		// A prefix always has a smaller id than its extensions (it is
		// added, or read, first).
		if p := t.parent[i]; p != 0 {
			keys[i] = keys[p-1]
		}
		keys[i][t.order[i]-1] = t.last[i]
	}
	perm := make([]uint32, len(keys))
	for i := range perm {
		perm[i] = uint32(i)
	}
	slices.SortFunc(perm, func(a, b uint32) int { return keys[a].compare(keys[b]) })
	return perm
}

// tableEncoder writes a table file: the header, then the body's fields
// through gzip. N-grams are written in key order (ngramKey.compare): a
// prefix then comes before its extensions, and its place in the file is
// the last one of its order written so far, which is how WriteBuild finds
// it without an index.
type tableEncoder struct {
	cw  countingWriter
	zw  *gzip.Writer
	bw  *bufio.Writer
	buf [binary.MaxVarintLen64]byte
	n   uint32 // n-grams written
}

func newTableEncoder(w io.Writer) (*tableEncoder, error) {
	e := &tableEncoder{cw: countingWriter{w: w}}
	var hdr [10]byte
	copy(hdr[:], tableMagic)
	binary.LittleEndian.PutUint16(hdr[8:], tableVersion)
	if _, err := e.cw.Write(hdr[:]); err != nil {
		return e, err
	}
	var err error
	if e.zw, err = gzip.NewWriterLevel(&e.cw, gzip.BestSpeed); err != nil {
		return e, err
	}
	e.bw = bufio.NewWriterSize(e.zw, 1<<16)
	return e, nil
}

// The writes' errors stay in bw and are returned by close.
func (e *tableEncoder) uint(x uint64) { e.bw.Write(e.buf[:binary.PutUvarint(e.buf[:], x)]) }
func (e *tableEncoder) str(s string)  { e.uint(uint64(len(s))); e.bw.WriteString(s) }

// head writes the fields before the n-grams.
func (e *tableEncoder) head(f CNGFormula, kind ECDFKind, step string, styles, tokens []string, nGrams, nEntries int) {
	e.uint(uint64(f))
	e.uint(uint64(kind))
	e.str(step)
	e.uint(uint64(len(styles)))
	for _, s := range styles {
		e.str(s)
	}
	e.uint(uint64(len(tokens)))
	for _, tok := range tokens {
		e.str(tok)
	}
	e.uint(uint64(nGrams))
	e.uint(uint64(nEntries))
}

// ngram writes one n-gram: prefix is 0 for a unigram, else 1 + the place
// in the file of the (n−1)-gram it extends, which is written as its
// distance back.
func (e *tableEncoder) ngram(prefix, last uint32, styles []uint16, dfs []uint32, cngs []float64) {
	if prefix != 0 {
		prefix = e.n - (prefix - 1)
	}
	e.n++
	e.uint(uint64(prefix))
	e.uint(uint64(last))
	e.uint(uint64(len(styles)))
	var f [8]byte
	for j, s := range styles {
		e.uint(uint64(s))
		e.uint(uint64(dfs[j]))
		binary.LittleEndian.PutUint64(f[:], math.Float64bits(cngs[j]))
		e.bw.Write(f[:])
	}
}

// close flushes the body and returns the bytes written in all.
func (e *tableEncoder) close() (int64, error) {
	if err := e.bw.Flush(); err != nil {
		return e.cw.n, err
	}
	if err := e.zw.Close(); err != nil {
		return e.cw.n, err
	}
	return e.cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadOptions configures ReadTable. The zero value applies the defaults.
type ReadOptions struct {
	// Limits bounds the decompressed size, which is held in memory while
	// decoding (MaxBytes 0: 4 GiB); a larger table fails with a
	// *limits.TooLargeError.
	Limits limits.Limits
	// MaxRatio limits the decompressed bytes per compressed byte read (on
	// top of 16 MiB), so that a small file of compressed zeros fails after a
	// few megabytes rather than at MaxBytes; 0 means DefaultMaxTableRatio.
	MaxRatio int64
}

// DefaultMaxTableRatio is the default ReadOptions.MaxRatio. Tables compress
// about 2 to 4 times; DEFLATE reaches about 1,030 times only on degenerate
// input such as runs of zeros.
const DefaultMaxTableRatio = 100

// ReadTable reads a table written by Table.WriteTo, validating every field:
// the magic and version, names, token ids, n-gram orders, uniqueness, style
// indices, df values and finite CNG values.
func ReadTable(r io.Reader, opts ReadOptions) (*Table, error) {
	limit := opts.Limits.Bytes(defaultMaxTableBytes)
	var hdr [10]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading table header: %w", err)
	}
	if string(hdr[:8]) != tableMagic {
		return nil, fmt.Errorf("not a StyleM table (magic %q, want %q)", hdr[:8], tableMagic)
	}
	version := binary.LittleEndian.Uint16(hdr[8:])
	if version < 1 || version > tableVersion {
		return nil, fmt.Errorf("table format version %d is not supported (want 1 to %d)", version, tableVersion)
	}
	ratio := int64(DefaultMaxTableRatio)
	if opts.MaxRatio > 0 {
		ratio = opts.MaxRatio
	}
	zr, err := gzipbound.NewReader(r, gzipbound.Options{Ratio: ratio, Max: limit + 1})
	if err != nil {
		return nil, fmt.Errorf("table body: %w", err)
	}
	defer zr.Close()
	// The body is decoded from memory: parsing uvarints from a slice is
	// several times faster than byte-wise reads through a reader.
	body, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if errors.Is(err, gzipbound.ErrTooLarge) && int64(len(body)) > limit {
		return nil, &limits.TooLargeError{Name: "table body", Limit: limit}
	}
	if err != nil {
		return nil, fmt.Errorf("table body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, &limits.TooLargeError{Name: "table body", Limit: limit}
	}
	d := &tableDecoder{b: body, version: version}
	t, err := d.table()
	if err != nil {
		return nil, fmt.Errorf("table body at byte %d: %w", d.pos, err)
	}
	if d.pos != len(d.b) {
		return nil, fmt.Errorf("table body at byte %d: trailing data", d.pos)
	}
	return t, nil
}

// tableDecoder reads the fields of a decompressed table body.
type tableDecoder struct {
	b       []byte
	pos     int
	version uint16
}

var errTruncated = fmt.Errorf("truncated: %w", io.ErrUnexpectedEOF)

// uint reads a uvarint no larger than max, naming what it is on error.
func (d *tableDecoder) uint(what string, max uint64) (uint64, error) {
	x, n := binary.Uvarint(d.b[d.pos:])
	if n == 0 {
		return 0, fmt.Errorf("%s: %w", what, errTruncated)
	}
	if n < 0 {
		return 0, fmt.Errorf("%s: varint overflows 64 bits", what)
	}
	d.pos += n
	if x > max {
		return 0, fmt.Errorf("%s = %d exceeds %d", what, x, max)
	}
	return x, nil
}

func (d *tableDecoder) str(what string) (string, error) {
	n, err := d.uint(what+" length", 1<<20)
	if err != nil {
		return "", err
	}
	if uint64(len(d.b)-d.pos) < n {
		return "", fmt.Errorf("%s: %w", what, errTruncated)
	}
	s := string(d.b[d.pos : d.pos+int(n)])
	d.pos += int(n)
	return s, nil
}

// float reads an IEEE-754 little-endian float64.
func (d *tableDecoder) float(what string) (float64, error) {
	if len(d.b)-d.pos < 8 {
		return 0, fmt.Errorf("%s: %w", what, errTruncated)
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.pos:]))
	d.pos += 8
	return v, nil
}

// Each token takes at least 2 bytes (length, one byte) and each n-gram at
// least 13 (prefix, token, entry count, one entry of style, df and an 8-byte
// CNG): counts are checked against the bytes left before anything is
// allocated for them, so a short file cannot claim billions of items.
const (
	minTokenBytes = 2
	minNgramBytes = 13
	minEntryBytes = 10 // style, df, an 8-byte CNG
)

// fits reports whether count items of at least size bytes each fit in
// what is left of the body.
func (d *tableDecoder) fits(count uint64, size int) bool {
	return count <= uint64((len(d.b)-d.pos)/size)
}

func (d *tableDecoder) table() (*Table, error) {
	t := &Table{styleIdx: map[string]int{}, vocab: newVocabulary()}
	f, err := d.uint("formula", math.MaxInt32)
	if err != nil {
		return nil, err
	}
	if t.formula = CNGFormula(f); !t.formula.valid() {
		return nil, fmt.Errorf("unknown CNG formula %d", f)
	}
	e, err := d.uint("ECDF kind", math.MaxInt32)
	if err != nil {
		return nil, err
	}
	if t.ecdf = ECDFKind(e); !t.ecdf.valid() {
		return nil, fmt.Errorf("unknown ECDF kind %d", e)
	}
	if t.step, err = d.str("tokenization"); err != nil {
		return nil, err
	}
	nS, err := d.uint("style count", maxStyles)
	if err != nil {
		return nil, err
	}
	if nS < 2 {
		return nil, fmt.Errorf("%d styles; a table has at least 2", nS)
	}
	for i := uint64(0); i < nS; i++ {
		s, err := d.str("style name")
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, fmt.Errorf("style %d has an empty name", i)
		}
		if _, dup := t.styleIdx[s]; dup {
			return nil, fmt.Errorf("style %q appears twice", s)
		}
		t.styleIdx[s] = len(t.styles)
		t.styles = append(t.styles, s)
	}
	nT, err := d.uint("token count", math.MaxUint32-1)
	if err != nil {
		return nil, err
	}
	if !d.fits(nT, minTokenBytes) {
		return nil, fmt.Errorf("token count %d exceeds what the remaining %d bytes can hold", nT, len(d.b)-d.pos)
	}
	t.vocab.tokens = make([]string, 0, nT)
	t.vocab.ids = make(map[string]uint32, nT)
	for i := uint64(0); i < nT; i++ {
		tok, err := d.str("token")
		if err != nil {
			return nil, err
		}
		if tok == "" || bytes.ContainsAny([]byte(tok), " \t\n") {
			return nil, fmt.Errorf("token %d (%q) is empty or contains white space", i+1, tok)
		}
		if _, dup := t.vocab.ids[tok]; dup {
			return nil, fmt.Errorf("token %q appears twice", tok)
		}
		t.vocab.intern(tok)
	}
	nG, err := d.uint("n-gram count", math.MaxUint32-1)
	if err != nil {
		return nil, err
	}
	if !d.fits(nG, minNgramBytes) {
		return nil, fmt.Errorf("n-gram count %d exceeds what the remaining %d bytes can hold", nG, len(d.b)-d.pos)
	}
	nE := nG // version 1: at least one entry per n-gram, grown as read
	if d.version >= 2 {
		if nE, err = d.uint("entry count", math.MaxUint32); err != nil {
			return nil, err
		}
		if nE < nG || !d.fits(nE, minEntryBytes) {
			return nil, fmt.Errorf("entry count %d is fewer than the %d n-grams or more than the remaining %d bytes can hold", nE, nG, len(d.b)-d.pos)
		}
	}
	// The trie index dominates loading; sizing it once saves its rehashes.
	t.children.reserve(int(nG))
	t.parent = make([]uint32, 0, nG)
	t.last = make([]uint32, 0, nG)
	t.order = make([]uint8, 0, nG)
	t.off = make([]uint32, 1, nG+1)
	t.entStyle = make([]uint16, 0, nE)
	t.entDF = make([]uint32, 0, nE)
	t.entCNG = make([]float64, 0, nE)
	for i := uint64(0); i < nG; i++ {
		p, err := d.uint("n-gram prefix", i)
		if err != nil {
			return nil, err
		}
		if d.version >= 2 && p != 0 {
			p = i - p + 1 // p places back: index i − p, stored + 1
		}
		if p != 0 && t.order[p-1] == maxOrder {
			return nil, fmt.Errorf("n-gram %d extends the %d-gram %q", i, maxOrder, t.ngramText(uint32(p-1)))
		}
		tok, err := d.uint("token id", nT)
		if err != nil {
			return nil, err
		}
		if tok == 0 {
			return nil, fmt.Errorf("n-gram %d: token id 0", i)
		}
		k, added := t.addChild(uint32(p), uint32(tok))
		if !added {
			return nil, fmt.Errorf("n-gram %q appears twice", t.ngramText(k))
		}
		nE, err := d.uint("entry count", nS)
		if err != nil {
			return nil, err
		}
		if nE == 0 {
			return nil, fmt.Errorf("n-gram %q has no style", t.ngramText(k))
		}
		prev := -1
		for range nE {
			s, err := d.uint("style index", nS-1)
			if err != nil {
				return nil, err
			}
			if int(s) <= prev {
				return nil, fmt.Errorf("n-gram %q: style indices not increasing", t.ngramText(k))
			}
			prev = int(s)
			df, err := d.uint("df", math.MaxUint32)
			if err != nil {
				return nil, err
			}
			if df == 0 {
				return nil, fmt.Errorf("n-gram %q: df 0 for style %q", t.ngramText(k), t.styles[s])
			}
			v, err := d.float("CNG value")
			if err != nil {
				return nil, err
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1 {
				return nil, fmt.Errorf("n-gram %q: CNG %v for style %q is outside [-1, 1]", t.ngramText(k), v, t.styles[s])
			}
			t.entStyle = append(t.entStyle, uint16(s))
			t.entDF = append(t.entDF, uint32(df))
			t.entCNG = append(t.entCNG, v)
		}
		if uint64(len(t.entStyle)) > math.MaxUint32 {
			return nil, fmt.Errorf("more than %d entries", uint64(math.MaxUint32))
		}
		t.off = append(t.off, uint32(len(t.entStyle)))
	}
	if d.version >= 2 && uint64(len(t.entStyle)) != nE {
		return nil, fmt.Errorf("%d entries, but the entry count says %d", len(t.entStyle), nE)
	}
	return t, nil
}
