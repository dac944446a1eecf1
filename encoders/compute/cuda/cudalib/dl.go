package cudalib

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Loaded says which file a library was loaded from.
type Loaded struct {
	// Path is the file that was loaded; Version the library's version
	// (e.g. cuBLAS "13.0.2", NVRTC "13.0").
	Path, Version string
}

// handle is an opened shared library.
type handle struct {
	lib  Library
	path string
	h    uintptr
}

// open dlopens the file f names, after its companion library from the
// same folder (see companion). When no folder held the library, each of its
// file names that fits o is left to the dynamic loader in turn (which
// resolves a companion by itself).
func open(o Options, f Found) (*handle, error) {
	if f.Path == "" {
		for _, name := range f.Library.FileNames() {
			if !o.fits(f.Library, name) {
				continue
			}
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

// bindAll makes every func field of the struct *fns call the C function
// its `sym` tag names (the versioned symbol cuda.h's macros select, e.g.
// cuMemAlloc_v2), or its own name; it fails naming the first symbol the
// library lacks.
func bindAll(h *handle, fns any) error {
	v := reflect.ValueOf(fns).Elem()
	for i := 0; i < v.NumField(); i++ {
		field := v.Type().Field(i)
		name := field.Tag.Get("sym")
		if name == "" {
			name = field.Name
		}
		sym, err := purego.Dlsym(h.h, name)
		if err != nil || sym == 0 {
			return fmt.Errorf("cuda: %s (%s) lacks %s: too old a version", h.lib, h.path, name)
		}
		// The fields are unexported: reach them through their address.
		fptr := reflect.NewAt(field.Type, unsafe.Pointer(v.Field(i).UnsafeAddr())).Interface()
		purego.RegisterFunc(fptr, sym)
	}
	return nil
}

// load opens lib from o's search path and binds the func fields of F.
func load[F any](o Options, lib Library) (*handle, *F, error) {
	h, err := open(o, o.Find(lib))
	if err != nil {
		return nil, nil, err
	}
	f := new(F)
	if err := bindAll(h, f); err != nil {
		return nil, nil, err
	}
	return h, f, nil
}
