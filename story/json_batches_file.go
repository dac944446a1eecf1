package story

// EachBatchFile reads the {id: story} file at path (OpenJSON) and calls fn
// with consecutive batches of its stories (JSONReader.EachBatch), so that
// a program's memory is bounded by a batch, not by the file.
func EachBatchFile(path string, ro ReadOptions, bo BatchOptions, fn func(batch []Story) error) error {
	r, err := OpenJSON(path, ro)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.EachBatch(bo, fn)
}
