package embcache

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLookup(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), FileName), Options{})
	defer s.Close()
	if err := s.PutMany([]Key{key(1), key(3)}, [][]float32{vec(1, 4), vec(3, 4)}); err != nil {
		t.Fatal(err)
	}
	keys := []Key{key(0), key(1), key(2), key(3)}
	found, missing, err := Lookup(s, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 2 || missing[0] != 0 || missing[1] != 2 {
		t.Fatalf("missing %v, want [0 2]", missing)
	}
	if found[0] != nil || !bitsEqual(found[1], vec(1, 4)) || found[2] != nil || !bitsEqual(found[3], vec(3, 4)) {
		t.Fatalf("found %v", found)
	}
	found, missing, err = Lookup(nil, keys)
	if err != nil || len(missing) != 4 || found[1] != nil {
		t.Fatalf("nil cache: found %v missing %v err %v", found, missing, err)
	}
}

func TestDigestDirAndJoin(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.json", "{}")
	write("model.safetensors", "w1")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d0, err := DigestDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("sub/ignored", "x") // sub-folders are not read
	if d, _ := DigestDir(dir); d != d0 {
		t.Fatal("a file in a sub-folder changed the digest")
	}
	write("model.safetensors", "w2")
	d1, _ := DigestDir(dir)
	write("model.safetensors", "w1")
	write("preprocessor_config.json", "{}")
	d2, _ := DigestDir(dir)
	if d1 == d0 || d2 == d0 || d1 == d2 {
		t.Fatalf("changed weights or an added file kept the digest: %s %s %s", d0, d1, d2)
	}
	if Join(d0, d1) == Join(d1, d0) || Join(d0) == d0 {
		t.Fatal("Join ignores order or is the identity")
	}
	if _, err := DigestDir(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing folder: no error")
	}
}
