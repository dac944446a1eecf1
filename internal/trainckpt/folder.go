package trainckpt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Files and names of a training checkpoint folder.
const (
	// OptimizerFile holds Adam's first and second moments.
	OptimizerFile = "optimizer.safetensors"
	// StateFile is the trainer state JSON; a folder without it is not a
	// (complete) checkpoint.
	StateFile = "trainer_state.json"
	// EpochPrefix starts the name of every epoch folder: epoch-NNN.
	EpochPrefix = "epoch-"
)

// EpochDir returns root/epoch-NNN for epochs completed.
func EpochDir(root string, epoch int) string {
	return filepath.Join(root, fmt.Sprintf("%s%03d", EpochPrefix, epoch))
}

// WriteFolder creates final's parent if needed, lets fill write the
// folder's files into a temporary sibling folder and renames it to final
// (replacing an older final). On error the temporary folder is removed and
// final is left as it was.
func WriteFolder(final string, fill func(tmp string) error) error {
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(final)+".tmp")
	if err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.RemoveAll(final); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// List returns the names of root's complete epoch folders (those holding
// StateFile), oldest first.
func List(root string) []string {
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), EpochPrefix) {
			if _, err := os.Stat(filepath.Join(root, e.Name(), StateFile)); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	sort.Strings(names)
	return names
}

// Latest returns dir itself when it is a checkpoint folder (it holds
// StateFile), else its newest complete epoch folder; false when it is
// neither.
func Latest(dir string) (string, bool) {
	if _, err := os.Stat(filepath.Join(dir, StateFile)); err == nil {
		return dir, true
	}
	all := List(dir)
	if len(all) == 0 {
		return "", false
	}
	return filepath.Join(dir, all[len(all)-1]), true
}

// Prune removes root's oldest epoch folders until at most keep remain,
// besides the epochs of spare (e.g. the best validation epoch's), which are
// never removed nor counted.
func Prune(root string, keep int, spare ...int) {
	var all []string
	for _, name := range List(root) {
		if !slices.ContainsFunc(spare, func(e int) bool { return filepath.Base(EpochDir(root, e)) == name }) {
			all = append(all, name)
		}
	}
	for len(all) > keep {
		os.RemoveAll(filepath.Join(root, all[0]))
		all = all[1:]
	}
}

// WriteEpoch writes root/epoch-NNN through WriteFolder: the model files
// (saveModel writes them into the folder it is given), Adam's moments and
// the trainer state. It returns the folder's path, with or without error.
func WriteEpoch(root string, epoch int, saveModel func(dir string) error, moments []Moment, state any) (string, error) {
	final := EpochDir(root, epoch)
	return final, WriteFolder(final, func(tmp string) error {
		if err := saveModel(tmp); err != nil {
			return err
		}
		if err := WriteMoments(tmp, moments); err != nil {
			return err
		}
		return WriteState(tmp, state)
	})
}
