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

// open dlopens the file f names, after its companion library from the
// same folder (see companion). When no folder held the library, each of its
// file names is left to the dynamic loader in turn (which resolves a
// companion by itself).
func open(f Found) (*handle, error) {
	if f.Path == "" {
		for _, name := range f.Library.FileNames() {
			if h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
				return &handle{lib: f.Library, path: name, h: h}, nil
			}
		}
		return nil, notFound(f)
	}
	if c := companion(filepath.Base(f.Path)); c != "" {
		cp := filepath.Join(filepath.Dir(f.Path), c)
		// RTLD_GLOBAL so that the library's own dependency resolves to it.
		if _, err := purego.Dlopen(cp, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
			return nil, fmt.Errorf("cuda: %s needs %s: %v", f.Path, cp, err)
		}
	}
	h, err := purego.Dlopen(f.Path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("cuda: %s cannot be loaded: %v", f.Path, err)
	}
	return &handle{lib: f.Library, path: f.Path, h: h}, nil
}

// notFound is the error of a library that no folder held and the dynamic
// loader did not know either.
func notFound(f Found) error {
	msg := fmt.Sprintf("cuda: %s not found (%s) in %s or by the dynamic loader",
		f.Library, strings.Join(f.Library.FileNames(), ", "), EnvLibPath+", CUDA_HOME, CUDA_PATH and the system folders")
	if len(f.Rejected) > 0 {
		msg += "; rejected " + f.Rejected[0]
		if len(f.Rejected) > 1 {
			msg += fmt.Sprintf(" and %d more", len(f.Rejected)-1)
		}
	}
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
