package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/atomicfile"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "scores.csv")
	_ = atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "id,nr\n1,0.9\n")
		return err
	})
	// A write that fails half-way leaves the previous file as it was.
	err := atomicfile.Write(path, func(w io.Writer) error {
		io.WriteString(w, "id,nr\n")
		return errors.New("scorer failed")
	})
	data, _ := os.ReadFile(path)
	fmt.Printf("%v\n%s", err, data)
	// Output:
	// scorer failed
	// id,nr
	// 1,0.9
}
