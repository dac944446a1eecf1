package embcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStoreDigestFileRemembers: an unchanged file is read once, across
// Open; an edit that keeps the size and modification time is still seen
// (the change time moves); a freshly written file is not remembered; a
// damaged memo is recomputed.
func TestStoreDigestFileRemembers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(t.TempDir(), FileName)
	file := filepath.Join(dir, "model.safetensors")
	if err := os.WriteFile(file, []byte("weights-1"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openT(t, path, Options{})
	// A fresh file is racy: read every time.
	for range 2 {
		if _, err := s.DigestFile(file); err != nil {
			t.Fatal(err)
		}
	}
	if st, _ := s.Stats(); st.FilesRead != 2 {
		t.Fatalf("fresh file read %d times, want 2 (not remembered)", st.FilesRead)
	}
	zero := time.Duration(0)
	s.racyWindow = &zero
	want, _ := DigestFile(file)
	for range 2 {
		if d, err := s.DigestFile(file); err != nil || d != want {
			t.Fatalf("digest %s, err %v; want %s", d, err, want)
		}
	}
	if st, _ := s.Stats(); st.FilesRead != 3 {
		t.Fatalf("read %d times, want 3 (remembered after the first settled read)", st.FilesRead)
	}
	s.Close()

	s = openT(t, path, Options{})
	s.racyWindow = &zero
	if d, _ := s.DigestDir(dir); d != mustDigestDir(t, dir) {
		t.Fatal("Store.DigestDir differs from DigestDir")
	}
	if st, _ := s.Stats(); st.FilesRead != 0 {
		t.Fatalf("after reopening: read %d times, want 0", st.FilesRead)
	}
	// Same size, modification time put back: the change time differs.
	fi, _ := os.Stat(file)
	if err := os.WriteFile(file, []byte("weights-2"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	want, _ = DigestFile(file)
	if d, _ := s.DigestFile(file); d != want {
		t.Fatal("an edit that kept size and modification time was not seen")
	}
	// A damaged memo is not trusted.
	abs, _ := filepath.Abs(file)
	err := s.db.Update(func(tx *boltTx) error {
		b := tx.Bucket(bucketFiles)
		m := append([]byte(nil), b.Get([]byte(abs))...)
		m[50] ^= 1
		return b.Put([]byte(abs), m)
	})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.Stats()
	if d, _ := s.DigestFile(file); d != want {
		t.Fatal("damaged memo gave a wrong digest")
	}
	if st, _ := s.Stats(); st.FilesRead != before.FilesRead+1 {
		t.Fatal("damaged memo was used")
	}
	s.Close()
}

func mustDigestDir(t *testing.T, dir string) Digest {
	t.Helper()
	d, err := DigestDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
