package stylem

import (
	"bufio"
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// A run is a file of (n-gram key, style, df) entries sorted by key, then
// style, with no (key, style) twice: each entry is six uvarints (the four
// token ids of the key, 0 where unused, the style and the df). Runs only
// live in WriteBuild's temporary folder.

// spillEntry is one count: df groups of style contain the n-gram key.
type spillEntry struct {
	key   ngramKey
	style uint16
	df    uint32
}

// spillEntryBytes is the memory one spillEntry takes in a chunk.
const spillEntryBytes = 24

// mergeFanIn is the most runs merged at once (open files and buffers).
const mergeFanIn = 64

// runBufferBytes is the buffer of each run being read or written.
const runBufferBytes = 64 << 10

func (a spillEntry) compare(b spillEntry) int {
	if c := a.key.compare(b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.style, b.style)
}

// spiller collects entries in a chunk of at most max and writes each full
// chunk as a run.
type spiller struct {
	dir  string
	max  int
	ent  []spillEntry
	runs []string // the runs not merged yet
	made int      // runs made so far, which names the next
}

// add counts e, writing the chunk out first when it is full. The chunk
// grows by doubling up to max, so a small corpus takes little memory.
func (s *spiller) add(e spillEntry) error {
	if len(s.ent) == s.max {
		if err := s.flush(); err != nil {
			return err
		}
	}
	if len(s.ent) == cap(s.ent) {
		s.ent = slices.Grow(s.ent, min(max(1024, cap(s.ent)), s.max-cap(s.ent)))
	}
	s.ent = append(s.ent, e)
	return nil
}

// flush sorts the chunk, sums the entries of equal (key, style) and
// writes them as a run.
func (s *spiller) flush() error {
	if len(s.ent) == 0 {
		return nil
	}
	slices.SortFunc(s.ent, spillEntry.compare)
	w, err := s.newRun()
	if err != nil {
		return err
	}
	cur := s.ent[0]
	for _, e := range s.ent[1:] {
		if e.key == cur.key && e.style == cur.style {
			if cur.df, err = addDF(cur.df, e.df); err != nil {
				return err
			}
			continue
		}
		w.put(cur)
		cur = e
	}
	w.put(cur)
	s.ent = s.ent[:0]
	return w.close()
}

// addDF adds two document frequencies, which the table stores in 32 bits.
func addDF(a, b uint32) (uint32, error) {
	if a > math.MaxUint32-b {
		return 0, errors.New("a document frequency exceeds 2^32-1")
	}
	return a + b, nil
}

// newRun creates the next run file.
func (s *spiller) newRun() (*runWriter, error) {
	path := filepath.Join(s.dir, fmt.Sprintf("run%06d", s.made))
	s.made++
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("writing a run: %w", err)
	}
	s.runs = append(s.runs, path)
	return &runWriter{f: f, bw: bufio.NewWriterSize(f, runBufferBytes)}, nil
}

// merge merges the runs, mergeFanIn at a time, until one is left, and
// returns its path (each merged run is removed once merged).
func (s *spiller) merge(ctx context.Context) (string, error) {
	if len(s.runs) == 0 {
		// No n-gram at all: an empty run.
		w, err := s.newRun()
		if err != nil {
			return "", err
		}
		if err := w.close(); err != nil {
			return "", err
		}
	}
	for len(s.runs) > 1 {
		k := min(mergeFanIn, len(s.runs))
		in := slices.Clone(s.runs[:k])
		s.runs = s.runs[k:]
		w, err := s.newRun()
		if err != nil {
			return "", err
		}
		if err := mergeInto(ctx, w, in); err != nil {
			w.close()
			return "", err
		}
		if err := w.close(); err != nil {
			return "", err
		}
		for _, p := range in {
			os.Remove(p)
		}
	}
	return s.runs[0], nil
}

// mergeInto merges the sorted runs at paths into w, summing the df of
// entries with the same (key, style).
func mergeInto(ctx context.Context, w *runWriter, paths []string) error {
	h := make(runHeap, 0, len(paths))
	defer func() {
		for _, r := range h {
			r.f.Close()
		}
	}()
	for _, p := range paths {
		r, err := openRun(p)
		if err != nil {
			return err
		}
		if !r.next() {
			r.f.Close()
			if r.err != nil {
				return r.err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	var cur spillEntry
	have := false
	for n := 0; len(h) > 0; n++ {
		if n%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r := h[0]
		e := r.cur
		if r.next() {
			heap.Fix(&h, 0)
		} else {
			r.f.Close()
			heap.Pop(&h)
			if r.err != nil {
				return r.err
			}
		}
		if have && e.key == cur.key && e.style == cur.style {
			var err error
			if cur.df, err = addDF(cur.df, e.df); err != nil {
				return err
			}
			continue
		}
		if have {
			w.put(cur)
		}
		cur, have = e, true
	}
	if have {
		w.put(cur)
	}
	return nil
}

// runHeap orders open runs by their current entry.
type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].cur.compare(h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// runWriter writes a run's entries.
type runWriter struct {
	f   *os.File
	bw  *bufio.Writer
	buf [6 * binary.MaxVarintLen32]byte
}

// put writes e; errors stay in bw until close.
func (w *runWriter) put(e spillEntry) {
	b := w.buf[:0]
	for _, id := range e.key {
		b = binary.AppendUvarint(b, uint64(id))
	}
	b = binary.AppendUvarint(b, uint64(e.style))
	b = binary.AppendUvarint(b, uint64(e.df))
	w.bw.Write(b)
}

func (w *runWriter) close() error {
	err := w.bw.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing a run: %w", err)
	}
	return nil
}

// runReader reads a run's entries one by one into cur.
type runReader struct {
	f   *os.File
	br  *bufio.Reader
	cur spillEntry
	err error
}

func openRun(path string) (*runReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading a run: %w", err)
	}
	return &runReader{f: f, br: bufio.NewReaderSize(f, runBufferBytes)}, nil
}

// next reads the next entry; false at the end of the run or on an error
// (then err is set).
func (r *runReader) next() bool {
	var v [6]uint64
	for i := range v {
		x, err := binary.ReadUvarint(r.br)
		if err == io.EOF && i == 0 {
			return false
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			r.err = fmt.Errorf("reading run %s: %w", filepath.Base(r.f.Name()), err)
			return false
		}
		v[i] = x
	}
	for i := range r.cur.key {
		r.cur.key[i] = uint32(v[i])
	}
	r.cur.style, r.cur.df = uint16(v[4]), uint32(v[5])
	return true
}

// readRun calls fn with each n-gram of the run at path: its key and its
// entries' styles (increasing) and dfs, valid until fn returns.
func readRun(ctx context.Context, path string, fn func(k ngramKey, styles []uint16, dfs []uint32) error) error {
	r, err := openRun(path)
	if err != nil {
		return err
	}
	defer r.f.Close()
	var styles []uint16
	var dfs []uint32
	var key ngramKey
	for n := 0; ; n++ {
		if n%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ok := r.next()
		if len(styles) > 0 && (!ok || r.cur.key != key) {
			if err := fn(key, styles, dfs); err != nil {
				return err
			}
			styles, dfs = styles[:0], dfs[:0]
		}
		if !ok {
			return r.err
		}
		key = r.cur.key
		styles = append(styles, r.cur.style)
		dfs = append(dfs, r.cur.df)
	}
}
