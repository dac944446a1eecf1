package embcache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// TestImageKeyFields changes each field of an ImageInput in turn: every
// change must give another key (a changed checkpoint, preprocessor, crop
// file or box never reuses an entry), and equal inputs the same key.
func TestImageKeyFields(t *testing.T) {
	base := ImageInput{Model: DigestBytes([]byte("w")), Preprocess: "resize=224", Source: DigestBytes([]byte("jpg")), Region: "[1, 2, 3, 4]"}
	if ImageKey(base) != ImageKey(base) {
		t.Fatal("same input, different keys")
	}
	changed := []ImageInput{base, base, base, base, base}
	changed[0].Model = DigestBytes([]byte("w2"))
	changed[1].Preprocess = "resize=256"
	changed[2].Source = DigestBytes([]byte("jpg2"))
	changed[3].Region = "[1, 2, 3, 5]"
	changed[4].Region = ""
	seen := map[Key]int{ImageKey(base): -1}
	for i, in := range changed {
		k := ImageKey(in)
		if j, dup := seen[k]; dup {
			t.Fatalf("change %d gives the key of %d", i, j)
		}
		seen[k] = i
	}
	if ImageKey(ImageInput{}) == TextKey(TextInput{}) {
		t.Fatal("empty image and text inputs share a key")
	}
}

// TestTextKeyFieldBoundaries: fields are length-prefixed, so moving bytes
// from one field to the next changes the key.
func TestTextKeyFieldBoundaries(t *testing.T) {
	a := TextKey(TextInput{Tokenizer: "ab", Text: "c"})
	b := TextKey(TextInput{Tokenizer: "a", Text: "bc"})
	if a == b {
		t.Fatal(`("ab","c") and ("a","bc") share a key`)
	}
	if TextKey(TextInput{Text: "x"}) == TextKey(TextInput{Text: "x", Model: DigestBytes(nil)}) {
		t.Fatal("model digest ignored")
	}
}

func TestDigestFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ckpt")
	if err := os.WriteFile(p, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := DigestFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256.Sum256([]byte("weights")); d != want {
		t.Fatalf("digest %s, want %x", d, want)
	}
	if _, err := DigestFile(p + ".missing"); err == nil {
		t.Fatal("missing file: no error")
	}
}

// TestKeyKinds: ImageKey and TextKey say their kind in the first byte,
// and a text key changes with the token ids (a tokenizer whose files
// changed misses the texts it now encodes otherwise).
func TestKeyKinds(t *testing.T) {
	if k := ImageKey(ImageInput{}); k.Kind() != KindImage || k.Kind().String() != "image" {
		t.Fatalf("image key kind %q", k.Kind())
	}
	in := TextInput{Tokenizer: "clip 77", Text: "a dog", IDs: []int{49406, 320, 1929, 49407, 0}}
	if k := TextKey(in); k.Kind() != KindText || k.Kind().String() != "text" {
		t.Fatalf("text key kind %q", k.Kind())
	}
	if (Key{}).Kind().String() != "other" {
		t.Fatal("zero key has a kind")
	}
	other := in
	other.IDs = []int{49406, 320, 1930, 49407, 0}
	shorter := in
	shorter.IDs = in.IDs[:4]
	if TextKey(in) == TextKey(other) || TextKey(in) == TextKey(shorter) || TextKey(in) == TextKey(TextInput{Tokenizer: in.Tokenizer, Text: in.Text}) {
		t.Fatal("token ids ignored")
	}
}
