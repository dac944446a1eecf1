package groovist_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/groovist"
)

// Warm a cache with CLIPScore's image features before scoring several
// systems over the same images: each system then encodes only its
// captions.
func ExampleWarmCache() {
	m, tok := tinyCLIP()
	dir, _ := os.MkdirTemp("", "warm")
	defer os.RemoveAll(dir)
	st, err := embcache.OpenDir(dir, embcache.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	model, err := st.DigestDir(filepath.Join("..", "testdata", "e2e", "clip"))
	if err != nil {
		fmt.Println(err)
		return
	}
	w := groovist.CacheWarming{Images: filepath.Join("..", "testdata", "e2e", "clipscore", "images")}
	for range 2 {
		err := groovist.WarmCache(context.Background(), m, tok, st, model, w, func(r groovist.Warmed) { fmt.Println(r) })
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// CLIPScore: 10 of 10 images encoded and stored
	// CLIPScore: 0 of 10 images encoded and stored
}
