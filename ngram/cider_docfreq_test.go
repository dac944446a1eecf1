package ngram

import (
	"fmt"
	"runtime"
	"testing"
)

// TestCIDErDDoesNotDependOnPartitioning scores one corpus with the
// document frequencies counted in one table, in two, and in 255
// partitions (a tiny budget), on one and on two workers (the corpus split
// afresh each time): every score must be the same to the bit, since
// partitioning only changes where an n-gram is counted.
func TestCIDErDDoesNotDependOnPartitioning(t *testing.T) {
	var in caseFile
	readGzipJSON(t, "synth_300_seed11.json.gz", &in)
	c, err := NewCorpus(in.Cands, in.Refs)
	if err != nil {
		t.Fatal(err)
	}
	want := CIDErD(c)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, budget := range []int{1 << 40, ciderTableBudget, 1 << 10} {
			got := ciderD(uncached(c), budget, nil)
			if got.Corpus != want.Corpus {
				t.Errorf("procs %d budget %d: corpus %v, want %v", procs, budget, got.Corpus, want.Corpus)
			}
			for id, w := range want.Items {
				if got.Items[id] != w {
					t.Errorf("procs %d budget %d: item %s = %v, want %v", procs, budget, id, got.Items[id], w)
				}
			}
		}
	}
}

// TestDocFreqsMatchCounting checks every occurrence's document frequency
// against a direct count with Go maps (the toolkit's: for each item, the
// set of n-grams over its references), counted in one table and in many
// partitions, on one and on two workers.
func TestDocFreqsMatchCounting(t *testing.T) {
	var in caseFile
	readGzipJSON(t, "synth_300_seed11.json.gz", &in)
	c, err := NewCorpus(in.Cands, in.Refs)
	if err != nil {
		t.Fatal(err)
	}
	tc := newTokenCorpus(c)
	gram := func(s, k, j int) string { return fmt.Sprint(tc.sentence(s)[j : j+k]) }
	docs := map[string]uint32{}
	for i := range tc.items() {
		seen := map[string]bool{}
		for s := tc.itemSents[i] + 1; s < tc.itemSents[i+1]; s++ {
			for k := 1; k <= maxOrder; k++ {
				for j := 0; j+k <= len(tc.sentence(s)); j++ {
					seen[gram(s, k, j)] = true
				}
			}
		}
		for g := range seen {
			docs[g]++
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, budget := range []int{1 << 40, 1 << 10} {
			df := tc.docFreqs(budget)
			checked := 0
			for s := range tc.sentences() {
				tok := tc.sentence(s)
				o := tc.occStart[s]
				for k := 1; k <= maxOrder; k++ {
					for j := 0; j+k <= len(tok); j++ {
						got := df.tokens[tok[j]]
						if k > 1 {
							got = df.grams[o]
							o++
							checked++
						}
						if want := docs[gram(s, k, j)]; got != want {
							t.Fatalf("procs %d budget %d: sentence %d, %d-gram at %d: df %d, want %d", procs, budget, s, k, j, got, want)
						}
					}
				}
			}
			if checked != len(df.grams) || checked == 0 {
				t.Fatalf("checked %d of %d occurrences", checked, len(df.grams))
			}
		}
	}
}
