package cudalib

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ebitengine/purego"
)

// handle is an opened shared library.
type handle struct {
	lib  Library
	path string
	h    uintptr
}

// open dlopens the file f names (after its companion library from the same
// folder, see companion), reporting what was rejected on the way when it
// fails.
func open(f Found) (*handle, error) {
	path := f.Path
	if path == "" {
		path = f.Library.FileNames()[0]
	}
	if c := companion(filepath.Base(path)); c != "" {
		cp := c
		if filepath.IsAbs(path) {
			cp = filepath.Join(filepath.Dir(path), c)
		}
		// RTLD_GLOBAL so that the library's own dependency resolves to it.
		if _, err := purego.Dlopen(cp, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
			return nil, fmt.Errorf("cuda: %s needs %s: %v", path, cp, err)
		}
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		if f.Path == "" {
			return nil, notFound(f, err)
		}
		return nil, fmt.Errorf("cuda: %s cannot be loaded: %v", path, err)
	}
	return &handle{lib: f.Library, path: path, h: h}, nil
}

// notFound is the error of a library that no folder held and the dynamic
// loader did not know either.
func notFound(f Found, err error) error {
	msg := fmt.Sprintf("cuda: %s not found (%s) in %s or by the dynamic loader",
		f.Library, strings.Join(f.Library.FileNames(), ", "), EnvLibPath+", CUDA_HOME, CUDA_PATH and the system folders")
	if len(f.Rejected) > 0 {
		msg += "; rejected " + f.Rejected[0]
		if len(f.Rejected) > 1 {
			msg += fmt.Sprintf(" and %d more", len(f.Rejected)-1)
		}
	}
	_ = err // the loader's own message repeats the file name only
	return fmt.Errorf("%s", msg)
}

// binder registers C functions of one library into Go function variables,
// keeping the first missing symbol as its error.
type binder struct {
	h   *handle
	err error
}

// bind makes *fptr (a pointer to a func variable) call the C function name.
func (b *binder) bind(fptr any, name string) {
	if b.err != nil {
		return
	}
	sym, err := purego.Dlsym(b.h.h, name)
	if err != nil || sym == 0 {
		b.err = fmt.Errorf("cuda: %s (%s) lacks %s: too old a version", b.h.lib, b.h.path, name)
		return
	}
	purego.RegisterFunc(fptr, sym)
}
