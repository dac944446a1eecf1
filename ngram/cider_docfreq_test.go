package ngram

import (
	"runtime"
	"testing"
)

// TestCIDErDDoesNotDependOnPartitioning scores one corpus with the
// document frequencies counted in one table, in two, and in 256 hash
// partitions (a tiny budget), on one and on two workers: every score must
// be the same to the bit, since partitioning only changes where an n-gram
// is counted.
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
			got := ciderD(c, budget)
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
