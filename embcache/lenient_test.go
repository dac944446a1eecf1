package embcache

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestLenient: reads and writes go through while the store works; once it
// is closed they fail, which Lenient turns into misses and dropped writes,
// reporting the first failure alone.
func TestLenient(t *testing.T) {
	st := openT(t, filepath.Join(t.TempDir(), FileName), Options{})
	var failures []error
	c := &Lenient{Store: st, OnError: func(err error) { failures = append(failures, err) }}
	if err := c.PutMany([]Key{key(1)}, [][]float32{vec(1, 4)}); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := c.Get(key(1)); err != nil || !ok || !slices.Equal(v, vec(1, 4)) {
		t.Fatalf("Get after PutMany: %v, %v, %v", v, ok, err)
	}
	if _, ok, err := c.Get(key(2)); err != nil || ok || len(failures) != 0 {
		t.Fatalf("Get of a missing key: %v, %v, failures %v", ok, err, failures)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Get(key(1)); err == nil {
		t.Fatal("closed store: Get succeeds, the test needs a failing store")
	}
	if v, ok, err := c.Get(key(1)); err != nil || ok || v != nil {
		t.Fatalf("Get on a closed store: %v, %v, %v; want a miss", v, ok, err)
	}
	if err := c.PutMany([]Key{key(3)}, [][]float32{vec(3, 4)}); err != nil {
		t.Fatalf("PutMany on a closed store: %v; want nil", err)
	}
	if len(failures) != 1 {
		t.Fatalf("%d failures reported, want the first only: %v", len(failures), failures)
	}
}
