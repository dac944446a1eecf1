package embcache

import (
	"path/filepath"
	"testing"
)

// TestStoreSizePer10000 writes 10,000 vectors of ViT-B/16's and CLIP
// B/32's widths (in batches of 100, as a scorer would) and checks the byte
// count against the value layout; it logs the file's size, the figure the
// package documents.
func TestStoreSizePer10000(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB")
	}
	for _, dim := range []int{768, 512} {
		path := filepath.Join(t.TempDir(), FileName)
		s := openT(t, path, Options{})
		for b := 0; b < 100; b++ {
			ks, vs := make([]Key, 100), make([][]float32, 100)
			for j := range ks {
				ks[j], vs[j] = key(b*100+j), vec(b*100+j, dim)
			}
			if err := s.PutMany(ks, vs); err != nil {
				t.Fatal(err)
			}
		}
		st, err := s.Stats()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		want := int64(10000 * (32 + valueOverhead + 4*dim))
		if st.Entries != 10000 || st.Bytes != want {
			t.Fatalf("dim %d: %d entries, %d bytes, want 10000, %d", dim, st.Entries, st.Bytes, want)
		}
		if st.FileBytes < want {
			t.Fatalf("dim %d: file %d bytes, smaller than its %d bytes of entries", dim, st.FileBytes, want)
		}
		t.Logf("dim %d: 10,000 entries, %d bytes of keys and values, file %d bytes (%.1f MiB)", dim, st.Bytes, st.FileBytes, float64(st.FileBytes)/(1<<20))
	}
}
