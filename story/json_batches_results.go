package story

import "fmt"

// EachResultFile scores the texts of the {id: story} file at path a batch
// at a time (EachBatchFile) with a batch scorer, such as
// rovist.NonRedundancyAll, and calls emit with each story's result in file
// order. The first story whose score fails stops it there, with an error
// naming that story; no result outlives its batch, so that memory is bounded
// by a batch whatever the file's size.
func EachResultFile[R any](path string, ro ReadOptions, bo BatchOptions, score func(texts []string) ([]R, []error), emit func(id string, r R) error) error {
	return EachBatchFile(path, ro, bo, func(batch []Story) error {
		res, errs := score(Texts(batch))
		for i, st := range batch {
			if errs[i] != nil {
				return fmt.Errorf("story %q: %w", st.ID, errs[i])
			}
			if err := emit(st.ID, res[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
