package story

import "io"

// The batch bounds EachBatch applies when BatchOptions leaves them zero:
// large enough that the work on a batch dwarfs handing it over, small
// enough that a batch's stories and results stay a few megabytes.
const (
	defaultBatchStories = 4096
	defaultBatchBytes   = 8 << 20
)

// BatchOptions bounds the batches of EachBatch. The zero value means
// batches of at most 4,096 stories or 8 MiB of story text.
type BatchOptions struct {
	// MaxStories is the most stories in a batch (0: 4,096).
	MaxStories int
	// MaxTextBytes ends a batch once its stories' texts hold this many
	// bytes (0: 8 MiB).
	MaxTextBytes int
}

// EachBatch reads the rest of r story by story and calls fn with
// consecutive batches of stories, in file order, so that a program
// scoring a file of any size holds a batch at a time (plus the ids seen,
// which the reader keeps to reject a repeated one) and can handle a
// batch's stories in parallel. The next batch is read while fn handles the
// current one (reading and decoding is a good part of the work of a fast
// scorer), so at most three batches are in memory. A read error, or an
// error from fn, ends it and is returned as it is; the batches before a
// read error have been handled. fn must not keep the batch after it
// returns.
func (r *JSONReader) EachBatch(opts BatchOptions, fn func(batch []Story) error) error {
	maxStories, maxBytes := opts.MaxStories, opts.MaxTextBytes
	if maxStories <= 0 {
		maxStories = defaultBatchStories
	}
	if maxBytes <= 0 {
		maxBytes = defaultBatchBytes
	}
	type result struct {
		batch []Story
		err   error
	}
	batches := make(chan result, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(batches)
		var batch []Story
		size := 0
		for {
			st, err := r.Next()
			if err != nil && err != io.EOF {
				select {
				case batches <- result{err: err}:
				case <-stop:
				}
				return
			}
			if err == nil {
				batch = append(batch, st)
				size += len(st.Text)
			}
			if len(batch) > 0 && (err == io.EOF || len(batch) == maxStories || size >= maxBytes) {
				select {
				case batches <- result{batch: batch}:
				case <-stop:
					return
				}
				batch, size = nil, 0
			}
			if err == io.EOF {
				return
			}
		}
	}()
	for b := range batches {
		if b.err != nil {
			return b.err
		}
		if err := fn(b.batch); err != nil {
			return err
		}
	}
	return nil
}
