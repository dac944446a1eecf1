package rovist

import (
	"sort"
	"testing"
)

// BenchmarkNouns extracts the nouns of the 202 golden stories per iteration
// (sentence splitting, word tokenization and tagging included).
func BenchmarkNouns(b *testing.B) {
	var stories map[string]string
	readGzipJSON(b, "nouns_stories.json.gz", &stories)
	ids := make([]string, 0, len(stories))
	for id := range stories {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if _, err := Nouns(""); err != nil { // decode the model outside the timing
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, id := range ids {
			if _, err := Nouns(stories[id]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(ids))*float64(b.N)/b.Elapsed().Seconds(), "stories/s")
}
