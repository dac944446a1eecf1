package embcache_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/storyeval/storyeval/embcache"
)

// A program that must not fail because of its cache opens a Session for
// the run, gives it to the scorers as their Cache, and ends it; the notes
// say what the cache did.
func ExampleOpenSession() {
	dir, _ := os.MkdirTemp("", "embcache")
	defer os.RemoveAll(dir)
	note := func(line string) { fmt.Println(strings.ReplaceAll(line, dir, "DIR")) }
	k := embcache.TextKey(embcache.TextInput{Text: "a dog"})
	for run := 1; run <= 2; run++ {
		s, err := embcache.OpenSession(dir, embcache.Options{}, note)
		if err != nil {
			fmt.Println("going on without the cache:", err)
			return
		}
		if _, ok, _ := s.Get(k); !ok {
			s.PutMany([]embcache.Key{k}, [][]float32{{0.6, 0.8}})
		}
		s.End(true)
	}
	s, _ := embcache.OpenDir(dir, embcache.Options{})
	defer s.Close()
	sum, _ := s.Summary()
	fmt.Printf("%d entries: %d image, %d text (%d bytes)\n", sum.Entries, sum.Image.Entries, sum.Text.Entries, sum.Text.Bytes)
	// Output:
	// 0 of 1 text embeddings from the cache DIR/embeddings.bolt (1 encoded and stored)
	// 1 of 1 text embeddings from the cache DIR/embeddings.bolt (0 encoded and stored)
	// 1 entries: 0 image, 1 text (49 bytes)
}
