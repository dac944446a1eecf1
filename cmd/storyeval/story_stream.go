package main

import (
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// batchStories is the most stories of a batch (tests cross it).
const batchStories = 4096

// streamedNote ends the usage of the commands that print each batch as it
// is done.
const streamedNote = "Output is written a batch of stories at a time, as the file is read: an error in a later\nstory stops it there, with exit status 1."

// eachStoryBatch calls fn with consecutive batches of the stories of the
// {id: story} file at path: the per-story work runs in parallel within a
// batch and each batch's output is written before the next is read.
func eachStoryBatch(path string, fn func(batch []story.Story) error) error {
	ro := story.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}}
	return story.EachBatchFile(path, ro, story.BatchOptions{MaxStories: batchStories}, fn)
}
