package embcache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryByteFlipped flips one bit (bit i mod 8 of byte i), in turn, in
// every byte of what the store guards against damage: the two meta pages
// (bbolt's checksums), each page's self-identifying id (bbolt checks it
// on every read) and two entries' stored values (their CRC-32C), and uses
// the store with the default, fast Open: every read gives the exact
// vector or a miss — never other numbers, never an error — and a write
// then succeeds. Afterwards the file passes the full check, or was
// replaced.
//
// bbolt trusts the element headers of its pages (offsets and lengths): a
// flip there is outside what any check of this store can catch before
// bbolt reads through it, and is left out.
func TestEveryByteFlipped(t *testing.T) {
	if testing.Short() {
		t.Skip("opens the store once per byte of its file")
	}
	const n, dim = 12, 40
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.bolt")
	writeStore(t, clean, n, dim)
	orig, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	var rebuilt, misses, lost, sound int
	guarded := map[int]bool{}
	for i := range orig {
		if i < 2*4096 && i%4096 < 64 || i%4096 < 8 {
			guarded[i] = true
		}
	}
	for _, j := range []int{0, n - 1} {
		v := string(encodeValue(key(j), vec(j, dim)))
		for from := 0; ; {
			at := strings.Index(string(orig[from:]), v)
			if at < 0 {
				break
			}
			for b := from + at; b < from+at+len(v); b++ {
				guarded[b] = true
			}
			from += at + len(v)
		}
	}
	flipped := 0
	for i := range orig {
		if !guarded[i] {
			continue
		}
		flipped++
		damaged := append([]byte(nil), orig...)
		damaged[i] ^= 1 << (i % 8)
		sub := filepath.Join(dir, "flip")
		os.RemoveAll(sub)
		path := filepath.Join(sub, FileName)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("byte %d: Open: %v", i, err)
		}
		for j := 0; j < n; j++ {
			v, ok, err := s.Get(key(j))
			if err != nil {
				t.Fatalf("byte %d: entry %d: %v", i, j, err)
			}
			if ok && !bitsEqual(v, vec(j, dim)) {
				t.Fatalf("byte %d: entry %d read as other numbers", i, j)
			}
			if !ok {
				misses++
			}
		}
		if err := s.Put(key(n), vec(n, dim)); err != nil {
			t.Fatalf("byte %d: write after the reads: %v", i, err)
		}
		// A flipped key in a branch page can send a later search
		// elsewhere than the write went: a miss, which is allowed.
		if v, ok, err := s.Get(key(n)); err != nil || ok && !bitsEqual(v, vec(n, dim)) {
			t.Fatalf("byte %d: the entry just written: ok %v, err %v", i, ok, err)
		} else if !ok {
			lost++
		}
		if s.Rebuilt() != "" {
			rebuilt++
		}
		if err := s.Close(); err != nil {
			t.Fatalf("byte %d: Close: %v", i, err)
		}
		s, err = Open(path, Options{Verify: true})
		if err != nil {
			t.Fatalf("byte %d: reopen: %v", i, err)
		}
		if s.Rebuilt() == "" {
			sound++
		}
		s.Close()
	}
	t.Logf("%d bytes flipped: %d stores rebuilt while in use, %d misses in all, %d new entries not read back, %d stores sound at the end (the rest rebuilt by the full check: damage no read touched)",
		flipped, rebuilt, misses, lost, sound)
}

// TestDamageFoundByConcurrentReads: goroutines read a store with a
// damaged value at once (under -race in CI). Every read gives the exact
// vector or a miss, and the store is checked and rebuilt once, not once
// per goroutine that met the damage or read during the rebuild.
func TestDamageFoundByConcurrentReads(t *testing.T) {
	const n, dim, workers = 40, 16, 4
	path := filepath.Join(t.TempDir(), FileName)
	writeStore(t, path, n, dim)
	flipInValue(t, path, 7, dim)
	s := openT(t, path, Options{})
	defer s.Close()
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for r := range 3 {
				for j := range n {
					i := (j + w*n/workers + r) % n
					v, ok, err := s.Get(key(i))
					if err != nil || ok && !bitsEqual(v, vec(i, dim)) {
						errs <- fmt.Errorf("worker %d entry %d: ok %v err %v", w, i, ok, err)
						return
					}
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
	st, _ := s.Stats()
	if s.Rebuilt() == "" || st.Verified != 1 || st.Entries != 0 {
		t.Fatalf("rebuilt %q, stats %+v; want one full check, one rebuild, an empty store", s.Rebuilt(), st)
	}
}
