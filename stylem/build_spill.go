package stylem

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
)

// DefaultChunkBytes is SpillOptions.ChunkBytes's default: 16 MiB, about
// 700,000 (n-gram, style) counts per sorted run. Larger chunks save little
// time (a 23 MB corpus of 5 million n-grams builds in the same CPU time
// with 8 to 64 MiB) and add their size to the peak.
const DefaultChunkBytes = 16 << 20

// SpillOptions configures the disk and memory WriteBuild uses. The zero
// value applies the defaults.
type SpillOptions struct {
	// ChunkBytes is the memory for counting (n-gram, style) pairs before
	// they are sorted and written to disk as a run; 0 means
	// DefaultChunkBytes. Each pair takes 24 bytes; a chunk holds at least
	// one.
	ChunkBytes int
	// Dir is where a temporary folder for the runs (".stylem-runs-*") is
	// made and removed when WriteBuild returns; only a killed process
	// leaves it behind. "" means os.TempDir(). The runs take about 10
	// bytes per counted pair, and as much again while they are merged.
	Dir string
}

// BuildStats describes a table written by WriteBuild.
type BuildStats struct {
	// Styles are the style labels in table order.
	Styles []string
	// Ngrams is the number of distinct n-grams in the table.
	Ngrams int
	// Runs is the number of sorted runs the counts were written to before
	// they were merged.
	Runs int
}

// WriteBuild builds the table that Build builds from records and writes it
// to w, as Table.WriteTo does, without holding the table in memory: the
// same bytes as Build followed by WriteTo.
//
// It counts each group's distinct n-grams (keys of token ids) per style in
// chunks of SpillOptions.ChunkBytes, writes each chunk to a temporary file
// as a run sorted by n-gram and style, merges the runs (at most 64 at a
// time) into one, reads that once to build the ECDFs and once more to
// compute the CNG values and write the table. Its memory is therefore
// bounded independently of the number of n-grams:
//
//	peak ≈ the records + the vocabulary + 12 bytes per record (groups)
//	       + max(ChunkBytes, 64 × 64 KiB of run buffers,
//	             the ECDF tables: at most 48 bytes per record)
//
// (grouping the records by image and style first takes about 100 bytes per
// record in maps, freed before counting starts). The command measured
// 2.9× the corpus's size on a 200 MB JSONL corpus of 38 million n-grams.
//
// BuildOptions.MaxNgrams here bounds only the table (0: no bound): a table
// with more n-grams is ErrTooManyNgrams, found after the merge.
// Cancelling ctx stops the build; the runs are removed on every return.
func WriteBuild(ctx context.Context, w io.Writer, records []Record, o BuildOptions, so SpillOptions) (BuildStats, error) {
	t, recStyle, err := newBuildTable(records, &o)
	if err != nil {
		return BuildStats{}, err
	}
	chunk := so.ChunkBytes
	if chunk <= 0 {
		chunk = DefaultChunkBytes
	}
	dir, err := os.MkdirTemp(so.Dir, ".stylem-runs-*")
	if err != nil {
		return BuildStats{}, fmt.Errorf("folder for the build's runs: %w", err)
	}
	defer os.RemoveAll(dir)
	sp := &spiller{dir: dir, max: max(1, chunk/spillEntryBytes)}
	groups := uniqueGroups(records, recStyle, o.KeepAllCaptions)
	if err := t.spillGroups(ctx, sp, records, groups, o); err != nil {
		return BuildStats{}, err
	}
	if err := sp.flush(); err != nil {
		return BuildStats{}, err
	}
	sp.ent = nil // the chunk's memory serves the merge and the ECDFs
	st := BuildStats{Styles: t.Styles(), Runs: sp.made}
	final, err := sp.merge(ctx)
	if err != nil {
		return BuildStats{}, err
	}
	hists := make([][maxOrder]dfHistogram, len(t.styles))
	entries := 0
	err = readRun(ctx, final, func(k ngramKey, styles []uint16, dfs []uint32) error {
		st.Ngrams++
		entries += len(styles)
		if o.MaxNgrams > 0 && st.Ngrams > o.MaxNgrams {
			return fmt.Errorf("%w: more than %d", ErrTooManyNgrams, o.MaxNgrams)
		}
		n := k.order()
		for j, s := range styles {
			hists[s][n-1].add(dfs[j], 1)
		}
		return nil
	})
	if err != nil {
		return BuildStats{}, err
	}
	ecdfs := ecdfTables(hists, t.ecdf)
	e, err := newTableEncoder(w)
	if err != nil {
		return BuildStats{}, err
	}
	e.head(t.formula, t.ecdf, t.step, t.styles, t.vocab.tokens, st.Ngrams, entries)
	sc := newCNGScratch(len(t.styles))
	var cngs []float64
	var place [maxOrder]uint32 // place in the file of the last n-gram of each order
	i := uint32(0)
	err = readRun(ctx, final, func(k ngramKey, styles []uint16, dfs []uint32) error {
		n := k.order()
		cngs = slices.Grow(cngs[:0], len(styles))[:len(styles)]
		sc.ngram(t.formula, ecdfs, n, styles, dfs, cngs)
		var prefix uint32
		if n > 1 {
			prefix = place[n-2] + 1
		}
		e.ngram(prefix, k[n-1], styles, dfs, cngs)
		place[n-1] = i
		i++
		return nil
	})
	if err != nil {
		return BuildStats{}, err
	}
	if _, err := e.close(); err != nil {
		return BuildStats{}, err
	}
	return st, nil
}

// spillGroups counts the distinct n-grams of every group under its style,
// interning tokens in the order Build does (group order, so token ids and
// the table file are the same).
func (t *Table) spillGroups(ctx context.Context, sp *spiller, records []Record, groups []group, o BuildOptions) error {
	var ids []uint32
	var keys []ngramKey
	for gi, gr := range groups {
		if gi%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		captions := records[gr.src].Captions
		if !o.KeepAllCaptions {
			captions = captions[len(captions)-1:] // as internGroups
		}
		keys = keys[:0]
		for _, c := range captions {
			var ok bool
			if ids, ok = t.internCaption(ids, c, o.Step); !ok {
				continue
			}
			for i := range ids {
				var k ngramKey
				for n := 0; n < maxOrder && i+n < len(ids); n++ {
					k[n] = ids[i+n]
					keys = append(keys, k)
				}
			}
		}
		// A group counts each of its n-grams once.
		slices.SortFunc(keys, ngramKey.compare)
		keys = slices.Compact(keys)
		for _, k := range keys {
			if err := sp.add(spillEntry{key: k, style: gr.style, df: gr.weight}); err != nil {
				return err
			}
		}
	}
	return nil
}
