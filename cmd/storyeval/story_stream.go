package main

import (
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// Stories are read and processed in batches of at most batchStories
// stories or batchBytes bytes of text, so that a command's memory is
// bounded by a batch (plus the ids seen, to reject a repeated one), not by
// the file: the per-story scoring runs in parallel within a batch and each
// batch's output is written before the next is read.
const (
	batchStories = 4096
	batchBytes   = 8 << 20
)

// streamedNote ends the usage of the commands that print each batch as it
// is done.
const streamedNote = "Output is written a batch of stories at a time, as the file is read: an error in a later\nstory stops it there, with exit status 1."

// eachStoryBatch reads the {id: story} file at path story by story and
// calls fn with consecutive batches of stories, in file order. The next
// batch is read while fn handles the current one (reading and decoding is
// a good part of the work of a fast scorer such as nr), so at most three
// batches are in memory. A read error ends it; the batches before it have
// been handled.
func eachStoryBatch(path string, fn func(batch []story.Story) error) error {
	r, err := story.OpenJSON(path, story.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}})
	if err != nil {
		return err
	}
	defer r.Close()
	type result struct {
		batch []story.Story
		err   error
	}
	batches := make(chan result, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(batches)
		var batch []story.Story
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
			if len(batch) > 0 && (err == io.EOF || len(batch) == batchStories || size >= batchBytes) {
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
