package imageproc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestDecodeBudgetReserve: a request above the budget takes all of it (and
// so runs alone), a request that does not fit waits and gives up with its
// context, and released bytes are reserved again.
func TestDecodeBudgetReserve(t *testing.T) {
	b := NewDecodeBudget(100)
	if b.Size() != 100 || NewDecodeBudget(0).Size() != DefaultDecodeBudget {
		t.Fatalf("sizes %d and %d", b.Size(), NewDecodeBudget(0).Size())
	}
	ctx := context.Background()
	release, err := b.reserve(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := b.reserve(short, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("reserve on a full budget: %v, want the context's deadline", err)
	}
	release()
	short, cancel = context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	r2, err := b.reserve(short, 60)
	if err != nil {
		t.Fatalf("reserve after release: %v", err)
	}
	if _, err := b.reserve(short, 41); err == nil {
		t.Fatal("reserved 101 of 100 bytes")
	}
	r2()
}

// TestPreprocessFileMatchesDecodeThenPreprocess: the budgeted file path
// gives the pixel values of DecodeFile + Preprocess (and of the Source
// and region variants), from many goroutines sharing a budget smaller
// than two images, so they take turns.
func TestPreprocessFileMatchesDecodeThenPreprocess(t *testing.T) {
	path := "../../testdata/encoders/fixtures/images/img1.png"
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("fixture image (shipped in the testdata module): %v", err)
	}
	cfg, _ := DefaultConfig(CLIP)
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	img, err := DecodeFile(path, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := p.Preprocess(img, nil)
	box := Box{Left: 10.5, Top: 20.25, Right: 150, Bottom: 300}
	crop, _ := Crop(img, box)
	wantCrop, _ := p.Preprocess(crop, nil)
	src, _ := DecodeSourceFile(path, DecodeOptions{})
	wantSrc, _ := p.PreprocessSource(src, nil)
	st, _ := os.Stat(path)
	opts := DecodeOptions{Budget: NewDecodeBudget(imageCost(FormatPNG, st.Size(), img.Width, img.Height) * 3 / 2)}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := p.PreprocessFile(ctx, path, opts)
			if err == nil && !slices.Equal(got.Data, want.Data) {
				err = errors.New("PreprocessFile differs")
			}
			gotSrc, err2 := p.PreprocessSourceFile(ctx, path, opts)
			if err == nil && (err2 != nil || !slices.Equal(gotSrc.Data, wantSrc.Data)) {
				err = errors.Join(errors.New("PreprocessSourceFile differs"), err2)
			}
			gotCrops, err3 := p.PreprocessFileRegions(ctx, path, []Box{box, box}, opts)
			if err == nil && (err3 != nil || len(gotCrops) != 2 || !slices.Equal(gotCrops[1].Data, wantCrop.Data)) {
				err = errors.Join(errors.New("PreprocessFileRegions differs"), err3)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	// The header's size limit fails before the budget is asked, naming
	// the file and the size.
	_, err = p.PreprocessFile(ctx, path, DecodeOptions{MaxPixels: 1000, Budget: opts.Budget})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(filepath.Base(path))) || !bytes.Contains([]byte(err.Error()), []byte("157x321")) {
		t.Fatalf("error %v, want the file and its 157x321 size", err)
	}
}
