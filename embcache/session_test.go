package embcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSession: a run that looked up three image vectors and one text
// vector, two of them stored before, ends with the closing line; a failed
// run, or one that looked nothing up, ends silently; a damaged file is one
// note at open.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	img := func(i int) Key { return ImageKey(ImageInput{Region: fmt.Sprint(i)}) }
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	s, err := OpenSession(dir, Options{}, note)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.PutMany([]Key{img(1), key(1)}, [][]float32{vec(1, 4), vec(2, 4)}); err != nil {
		t.Fatal(err)
	}
	s.End(true)
	s, err = OpenSession(dir, Options{}, note)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Key{img(1), img(2), img(3), key(1)} {
		if _, _, err := s.Get(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutMany([]Key{img(2)}, [][]float32{vec(3, 4)}); err != nil {
		t.Fatal(err)
	}
	s.End(true)
	want := []string{"1 of 3 image embeddings, 1 of 1 text embeddings from the cache " + filepath.Join(dir, FileName) + " (1 encoded and stored)"}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Fatalf("notes %q, want %q", notes, want)
	}

	notes = nil
	s, err = OpenSession(dir, Options{}, note)
	if err != nil {
		t.Fatal(err)
	}
	s.Get(img(1))
	s.End(false)
	if s, err = OpenSession(dir, Options{}, note); err != nil {
		t.Fatal(err)
	}
	s.End(true)
	if len(notes) != 0 {
		t.Fatalf("a failed run and a run without lookups noted %q", notes)
	}

	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(strings.Repeat("garbage", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err = OpenSession(dir, Options{}, note); err != nil {
		t.Fatal(err)
	}
	s.End(true)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "embedding cache rebuilt: ") || !strings.Contains(notes[0], "moved aside") {
		t.Fatalf("damaged store: notes %q", notes)
	}
}

// TestSessionFailures: a store held by another session is Open's
// ErrLocked; a read that fails is a miss and one note.
func TestSessionFailures(t *testing.T) {
	dir := t.TempDir()
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	held, err := OpenSession(dir, Options{}, note)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSession(dir, Options{LockTimeout: 1}, note); !errors.Is(err, ErrLocked) {
		t.Fatalf("second session: err %v, want %v", err, ErrLocked)
	}
	held.Store.Close()
	for range 2 {
		if v, ok, err := held.Get(key(1)); v != nil || ok || err != nil {
			t.Fatalf("Get on a closed store: %v, %v, %v; want a miss", v, ok, err)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "embedding cache: ") || !strings.HasSuffix(notes[0], " (going on without it)") {
		t.Fatalf("notes %q, want one failure", notes)
	}
}
