package embcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func vec(seed, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(seed)*1000 + float32(i) + 0.25
	}
	return v
}

func key(i int) Key { return TextKey(TextInput{Text: fmt.Sprint(i)}) }

func openT(t *testing.T, path string, opts Options) *Store {
	t.Helper()
	s, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustGet(t *testing.T, s *Store, k Key) ([]float32, bool) {
	t.Helper()
	v, ok, err := s.Get(k)
	if err != nil {
		t.Fatal(err)
	}
	return v, ok
}

func TestStorePersistsAcrossOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", FileName)
	s := openT(t, path, Options{})
	if s.Rebuilt() != "" {
		t.Fatalf("new store reported rebuilt: %s", s.Rebuilt())
	}
	if err := s.PutMany([]Key{key(1), key(2)}, [][]float32{vec(1, 768), vec(2, 512)}); err != nil {
		t.Fatal(err)
	}
	if _, ok := mustGet(t, s, key(3)); ok {
		t.Fatal("hit for a key never stored")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, path, Options{})
	defer s.Close()
	for i, n := range map[int]int{1: 768, 2: 512} {
		v, ok := mustGet(t, s, key(i))
		if !ok || !bitsEqual(v, vec(i, n)) {
			t.Fatalf("key %d: ok %v, %d floats", i, ok, len(v))
		}
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	wantBytes := int64(2*32 + 2*valueOverhead + 4*(768+512))
	if st.Entries != 2 || st.Bytes != wantBytes || st.Hits != 2 || st.Misses != 0 || st.FileBytes < wantBytes {
		t.Fatalf("stats %+v, want 2 entries, %d bytes, 2 hits", st, wantBytes)
	}
	if err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, ok := mustGet(t, s, key(1)); ok {
		t.Fatal("hit after Clear")
	}
	if st, _ := s.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Fatalf("stats after Clear %+v", st)
	}
}

// TestStoreEvictsLeastRecentlyUsed caps a store at two entries' bytes: a
// third write evicts the entry used longest ago, and a read (recorded
// across Close and Open) counts as a use.
func TestStoreEvictsLeastRecentlyUsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	entry := int64(32 + valueOverhead + 4*16)
	opts := Options{MaxBytes: 2 * entry}
	s := openT(t, path, opts)
	for i := 1; i <= 2; i++ {
		if err := s.Put(key(i), vec(i, 16)); err != nil {
			t.Fatal(err)
		}
	}
	mustGet(t, s, key(1)) // 1 is now more recent than 2
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, path, opts)
	defer s.Close()
	if err := s.Put(key(3), vec(3, 16)); err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]bool{1: true, 2: false, 3: true} {
		if _, ok := mustGet(t, s, key(i)); ok != want {
			t.Fatalf("key %d present %v, want %v", i, ok, want)
		}
	}
	st, _ := s.Stats()
	if st.Entries != 2 || st.Bytes != 2*entry || st.Evicted != 1 {
		t.Fatalf("stats %+v, want 2 entries, %d bytes, 1 evicted", st, 2*entry)
	}
}

func TestOpenLockedTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := openT(t, path, Options{})
	defer s.Close()
	_, err := Open(path, Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: err %v, want ErrLocked", err)
	}
}

// writeStore writes entries 0..n-1 into a new store at path and closes it.
func writeStore(t *testing.T, path string, n, dim int) {
	t.Helper()
	s := openT(t, path, Options{})
	ks, vs := make([]Key, n), make([][]float32, n)
	for i := range ks {
		ks[i], vs[i] = key(i), vec(i, dim)
	}
	if err := s.PutMany(ks, vs); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// expectRebuilt opens a damaged store: Open must succeed with an empty
// store, say why in Rebuilt, and leave the damaged file aside.
func expectRebuilt(t *testing.T, path, why string, opts Options) {
	t.Helper()
	s := openT(t, path, opts)
	defer s.Close()
	checkRebuilt(t, s, why)
}

// checkRebuilt checks that s replaced its damaged file by an empty store,
// saying why, and left the damaged file aside.
func checkRebuilt(t *testing.T, s *Store, why string) {
	t.Helper()
	path := s.Path()
	if s.Rebuilt() == "" || !strings.Contains(s.Rebuilt(), why) {
		t.Fatalf("Rebuilt() = %q, want it to mention %q", s.Rebuilt(), why)
	}
	t.Logf("rebuilt: %s", s.Rebuilt())
	if _, ok := mustGet(t, s, key(0)); ok {
		t.Fatal("entry read from a rebuilt store")
	}
	aside, _ := filepath.Glob(path + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("moved-aside files %v, want one", aside)
	}
	if err := s.Put(key(0), vec(0, 4)); err != nil {
		t.Fatalf("rebuilt store not writable: %v", err)
	}
}

func TestOpenRebuildsTruncatedStore(t *testing.T) {
	for _, cut := range []int64{2, 4096 + 100} {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			writeStore(t, path, 200, 512)
			// Cut the file inside its live pages, as a crash while the
			// file was being written or copied would: at half the pages'
			// extent, and just short of their end.
			s := openT(t, path, Options{})
			var used int64
			s.db.View(func(tx *boltTx) error { used = tx.Size(); return nil })
			s.Close()
			at := used - cut
			if cut == 2 {
				at = used / 2
			}
			if err := os.Truncate(path, at); err != nil {
				t.Fatal(err)
			}
			// bbolt fails on the missing pages in several ways (a bad
			// freelist page, a fault past the end of the mapping); any of
			// them must lead to a rebuild.
			expectRebuilt(t, path, "", Options{})
		})
	}
}

// flipInValue flips a bit inside the stored floats of entry i (written by
// writeStore with dim floats) at every place the file holds them: a
// small bucket lives inline in its parent's page, and copy-on-write
// leaves stale copies in free pages.
func flipInValue(t *testing.T, path string, i, dim int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	needle := string(encodeValue(key(i), vec(i, dim))[5 : 5+4*dim])
	n := 0
	for from := 0; ; n++ {
		at := strings.Index(string(b[from:]), needle)
		if at < 0 {
			break
		}
		b[from+at+10] ^= 0x04
		from += at + len(needle)
	}
	if n == 0 {
		t.Fatal("value bytes not found in the file")
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenRebuildsFlippedByte: a flipped bit in a value. The default Open
// does not read the value; the read that does gets a miss, never numbers,
// and the full check it runs rebuilds the store. Open with Verify finds
// it at once.
func TestOpenRebuildsFlippedByte(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeStore(t, path, 3, 64)
	flipInValue(t, path, 1, 64)
	s := openT(t, path, Options{})
	defer s.Close()
	if s.Rebuilt() != "" {
		t.Fatalf("default Open read the values: %s", s.Rebuilt())
	}
	if v, ok := mustGet(t, s, key(2)); !ok || !bitsEqual(v, vec(2, 64)) {
		t.Fatal("intact entry not read before the damaged one")
	}
	if _, ok := mustGet(t, s, key(1)); ok {
		t.Fatal("corrupt value read as numbers")
	}
	checkRebuilt(t, s, "checksum")
	if st, _ := s.Stats(); st.Corrupt != 1 || st.Verified != 1 || st.Entries != 1 {
		t.Fatalf("stats %+v, want 1 corrupt, 1 full check, the rebuilt store's 1 entry", st)
	}

	path = filepath.Join(t.TempDir(), FileName)
	writeStore(t, path, 3, 64)
	flipInValue(t, path, 1, 64)
	expectRebuilt(t, path, "checksum", Options{Verify: true})
}

func TestOpenRebuildsOtherVersionAndForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeStore(t, path, 2, 8)
	s := openT(t, path, Options{})
	err := s.db.Update(func(tx *boltTx) error {
		return tx.Bucket(bucketMeta).Put(metaFormat, []byte("storyeval-embcache 0"))
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	expectRebuilt(t, path, `format "storyeval-embcache 0"`, Options{})

	foreign := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(foreign, []byte(strings.Repeat("not a store\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	expectRebuilt(t, foreign, "invalid database", Options{})
}

// TestStoreConcurrentGoroutines: goroutines writing and reading one Store
// at once (run under -race in CI) leave every entry readable and intact.
func TestStoreConcurrentGoroutines(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), FileName), Options{})
	defer s.Close()
	const workers, each = 4, 30
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for i := range each {
				n := w*1000 + i
				if err := s.Put(key(n), vec(n, 8)); err != nil {
					errs <- err
					return
				}
				if v, ok, err := s.Get(key(n)); err != nil || !ok || !bitsEqual(v, vec(n, 8)) {
					errs <- fmt.Errorf("entry %d: ok %v err %v", n, ok, err)
					return
				}
				if _, err := s.Stats(); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if st, _ := s.Stats(); st.Entries != workers*each || st.Hits != workers*each {
		t.Fatalf("stats %+v, want %d entries and hits", st, workers*each)
	}
}

// TestStatsByKind: entries, bytes, hits, misses and puts are counted by
// kind, across Open, and eviction and replacement keep the counts.
func TestStatsByKind(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	img := func(i int) Key { return ImageKey(ImageInput{Region: fmt.Sprint(i)}) }
	entry := func(dim int) int64 { return int64(32 + valueOverhead + 4*dim) }
	s := openT(t, path, Options{})
	if err := s.PutMany([]Key{img(1), img(2), key(1)}, [][]float32{vec(1, 8), vec(2, 8), vec(3, 4)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(img(2), vec(2, 16)); err != nil { // replaced: one entry, new size
		t.Fatal(err)
	}
	s.Close()
	s = openT(t, path, Options{MaxBytes: entry(8) + 2*entry(4)})
	defer s.Close()
	mustGet(t, s, img(1))
	mustGet(t, s, key(1))
	mustGet(t, s, key(2))
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	wantImage := KindStats{Entries: 2, Bytes: entry(8) + entry(16), Hits: 1}
	wantText := KindStats{Entries: 1, Bytes: entry(4), Hits: 1, Misses: 1}
	if st.Image != wantImage || st.Text != wantText || st.Entries != 3 || st.Bytes != wantImage.Bytes+wantText.Bytes || st.Hits != 2 || st.Misses != 1 {
		t.Fatalf("stats %+v, want image %+v, text %+v", st, wantImage, wantText)
	}
	// A write past the cap evicts img(2), used longest ago.
	if err := s.Put(key(2), vec(4, 4)); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Stats()
	wantImage = KindStats{Entries: 1, Bytes: entry(8), Hits: 1}
	wantText = KindStats{Entries: 2, Bytes: 2 * entry(4), Hits: 1, Misses: 1, Puts: 1}
	if st.Image != wantImage || st.Text != wantText || st.Evicted != 1 {
		t.Fatalf("after eviction: stats %+v, want image %+v, text %+v", st, wantImage, wantText)
	}
	if _, ok := mustGet(t, s, img(2)); ok {
		t.Fatal("evicted entry still read")
	}
}
