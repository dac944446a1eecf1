package stylem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// spillCorpus is a synthetic corpus with what the reference's grouping
// reacts to: images repeated under one style (a group of several
// records), keys that collide across styles ("a_b"+"c" and "a"+"b_c"),
// records with several captions, and a "[" triple the reference skips.
func spillCorpus() []Record {
	recs := syntheticCorpus(5, 3000, 12)
	for i := range recs {
		switch {
		case i%5 == 0:
			recs[i].Image = fmt.Sprintf("img%d", i%90)
		case i%11 == 0:
			recs[i].Captions = append(recs[i].Captions, recs[(i+7)%len(recs)].Captions[0], "[ a b")
		}
	}
	recs = append(recs,
		Record{Image: "x_y", Style: "z", Captions: []string{"one two three four"}},
		Record{Image: "x", Style: "y_z", Captions: []string{"two three four five"}})
	return recs
}

// TestWriteBuildMatchesBuild checks that the disk-spilling build writes
// exactly the bytes of Build followed by WriteTo, with a chunk that holds
// everything and with one so small that the counts spill into more runs
// than are merged at once (so runs of runs are merged).
func TestWriteBuildMatchesBuild(t *testing.T) {
	fx := loadToy(t)
	for _, tc := range []struct {
		name  string
		recs  []Record
		opts  BuildOptions
		chunk int // entries in the small chunk
	}{
		{"toy", toyRecords(fx), BuildOptions{Step: Simple, StepName: "simple"}, 2},
		{"toy paper statsmodels", toyRecords(fx), BuildOptions{Step: Simple, StepName: "simple", Formula: CNGSumOverStyleCount, ECDF: ECDFStatsmodels}, 2},
		{"synthetic", spillCorpus(), BuildOptions{}, 500},
		{"synthetic keep-all", spillCorpus(), BuildOptions{KeepAllCaptions: true}, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.opts.KeepAllCaptions {
				t.Skip("-short: the default grouping's case covers the spill")
			}
			tab, err := Build(tc.recs, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if _, err := tab.WriteTo(&want); err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{0, tc.chunk * spillEntryBytes} {
				dir := t.TempDir()
				var got bytes.Buffer
				st, err := WriteBuild(context.Background(), &got, tc.recs, tc.opts, SpillOptions{ChunkBytes: chunk, Dir: dir})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("chunk %d: WriteBuild wrote %d bytes that differ from Build + WriteTo's %d", chunk, got.Len(), want.Len())
				}
				if st.Ngrams != tab.NumNgrams() || strings.Join(st.Styles, ",") != strings.Join(tab.Styles(), ",") {
					t.Errorf("chunk %d: stats %d n-grams, styles %v; the table has %d, %v", chunk, st.Ngrams, st.Styles, tab.NumNgrams(), tab.Styles())
				}
				if chunk > 0 && st.Runs <= mergeFanIn {
					t.Errorf("chunk %d: %d runs; the test wants more than %d", chunk, st.Runs, mergeFanIn)
				}
				if left, _ := os.ReadDir(dir); len(left) != 0 {
					t.Errorf("chunk %d: %d files left in the spill folder", chunk, len(left))
				}
				t.Logf("chunk %d: %d n-grams, %d runs, %d bytes", chunk, st.Ngrams, st.Runs, got.Len())
			}
		})
	}
}

// TestOldTableFileReadsAndScoresTheSame reads a table written before
// n-grams were written in key order (n-grams in order of first
// appearance): it must score bit for bit as the table built now, and
// write the bytes WriteBuild writes.
func TestOldTableFileReadsAndScoresTheSame(t *testing.T) {
	old, err := os.ReadFile("testdata/toy_table_34c9a1c.stylem")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTable(bytes.NewReader(old), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fx := loadToy(t)
	opts := BuildOptions{Step: Simple, StepName: "simple"}
	tab := buildToy(t, fx, ECDFCountRatio)
	for _, tc := range fx.Tests.Values {
		var refs [][]string
		for _, r := range tc.Refs {
			refs = append(refs, strings.Fields(r))
		}
		a, _ := tab.Score(strings.Fields(tc.Hyp), refs, nil)
		b, _ := got.Score(strings.Fields(tc.Hyp), refs, nil)
		for s := range a.StyleCIDEr {
			if a.StyleCIDEr[s] != b.StyleCIDEr[s] || a.OnlyStyle[s] != b.OnlyStyle[s] || a.OnlyStyleExist[s] != b.OnlyStyleExist[s] {
				t.Fatalf("%q: the old table scores %+v, the new one %+v", tc.Hyp, b, a)
			}
		}
	}
	var rewritten, built bytes.Buffer
	if _, err := got.WriteTo(&rewritten); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteBuild(context.Background(), &built, toyRecords(fx), opts, SpillOptions{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(rewritten.Bytes(), old) || !bytes.Equal(rewritten.Bytes(), built.Bytes()) {
		t.Errorf("the old table rewritten: %d bytes; want the %d bytes WriteBuild writes, not the old %d", rewritten.Len(), built.Len(), len(old))
	}
}

// TestWriteBuildErrorsLeaveNoRuns checks the table bound, cancellation
// and a failing writer: each is reported and removes the runs.
func TestWriteBuildErrorsLeaveNoRuns(t *testing.T) {
	recs := spillCorpus()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		opts BuildOptions
		w    *failWriter
		want error
	}{
		{"max n-grams", context.Background(), BuildOptions{MaxNgrams: 1000}, nil, ErrTooManyNgrams},
		{"cancelled", cancelled, BuildOptions{}, nil, context.Canceled},
		{"write error", context.Background(), BuildOptions{}, &failWriter{after: 4096}, errWriteFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var w interface{ Write([]byte) (int, error) } = &bytes.Buffer{}
			if tc.w != nil {
				w = tc.w
			}
			_, err := WriteBuild(tc.ctx, w, recs, tc.opts, SpillOptions{ChunkBytes: 1000 * spillEntryBytes, Dir: dir})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d files left in the spill folder", len(left))
			}
		})
	}
}

var errWriteFailed = errors.New("write failed")

// failWriter fails once more than after bytes were written.
type failWriter struct{ after, n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n += len(p)
	if f.n > f.after {
		return 0, errWriteFailed
	}
	return len(p), nil
}
