package embcache_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/embcache"
)

func Example() {
	dir, _ := os.MkdirTemp("", "embcache")
	defer os.RemoveAll(dir)
	store, err := embcache.Open(filepath.Join(dir, embcache.FileName), embcache.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	// The key: the checkpoint, the preprocessing, the crop's source bytes
	// and its box.
	k := embcache.ImageKey(embcache.ImageInput{
		Model:      embcache.DigestBytes([]byte("checkpoint bytes")),
		Preprocess: "vit resize=224 bilinear mean=0.5 std=0.5",
		Source:     embcache.DigestBytes([]byte("jpeg bytes")),
		Region:     "[10, 20, 110, 220]",
	})
	if _, ok, _ := store.Get(k); !ok {
		// A miss: run the encoder, then keep its output.
		store.Put(k, []float32{0.25, -1, 3.5})
	}
	v, ok, _ := store.Get(k)
	st, _ := store.Stats()
	fmt.Println(v, ok)
	fmt.Printf("entries %d, bytes %d, hits %d, misses %d\n", st.Entries, st.Bytes, st.Hits, st.Misses)
	// Output:
	// [0.25 -1 3.5] true
	// entries 1, bytes 53, hits 1, misses 1
}
