package cudalib

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// EnvLibPath is the environment variable whose folders (separated by ':')
// are searched for the CUDA libraries after Options.Paths and before the
// system locations.
const EnvLibPath = "STORYEVAL_CUDA_LIB_PATH"

// Library names one of the libraries this package loads.
type Library int

// The libraries, in the order a backend needs them.
const (
	Driver Library = iota // the CUDA driver API, libcuda.so.1
	CuBLAS                // cuBLAS, libcublas (its libcublasLt beside it)
	NVRTC                 // the run-time CUDA C compiler, libnvrtc
)

// Libraries lists every Library, for reports.
var Libraries = []Library{Driver, CuBLAS, NVRTC}

// String returns the library's usual name.
func (l Library) String() string {
	switch l {
	case Driver:
		return "CUDA driver"
	case CuBLAS:
		return "cuBLAS"
	case NVRTC:
		return "NVRTC"
	}
	return fmt.Sprintf("Library(%d)", int(l))
}

// FileNames returns the file names the library may have, preferred first:
// the driver's one soname; cuBLAS and NVRTC of CUDA 13, then 12 (NVRTC 11.2+
// last: it compiles the kernels to PTX that newer drivers load as well).
func (l Library) FileNames() []string {
	switch l {
	case Driver:
		return []string{"libcuda.so.1"}
	case CuBLAS:
		return []string{"libcublas.so.13", "libcublas.so.12"}
	case NVRTC:
		return []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}
	}
	return nil
}

// companion returns the library that must be opened before name from the
// same folder: cuBLAS needs its libcublasLt of the same version, which its
// RUNPATH does not always find.
func companion(name string) string {
	if v, ok := strings.CutPrefix(name, "libcublas.so."); ok {
		return "libcublasLt.so." + v
	}
	return ""
}

// Options says where to look for the libraries. The zero value searches
// STORYEVAL_CUDA_LIB_PATH and the system locations.
type Options struct {
	// Paths are folders searched before all others.
	Paths []string
	// MaxCUDAMajor, when nonzero, skips cuBLAS and NVRTC files of a newer
	// CUDA major version: a driver supports the CUDA versions up to its
	// own (cuDriverGetVersion), and cuBLAS 13 or NVRTC 13's PTX fail on a
	// CUDA 12 driver. Discover sets it from the driver it finds.
	MaxCUDAMajor int
}

// systemDirs are the usual locations of the driver and the toolkit on
// Linux: the driver folder that container runtimes mount, the toolkit's
// default prefix, Debian's and Red Hat's library folders, and WSL's.
var systemDirs = []string{
	"/usr/local/nvidia/lib64",
	"/usr/local/nvidia/lib",
	"/usr/local/cuda/lib64",
	"/usr/local/cuda/targets/x86_64-linux/lib",
	"/usr/lib/x86_64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
	"/usr/lib64",
	"/usr/lib",
	"/usr/lib/wsl/lib",
}

// SearchPath returns the folders searched, in order, without duplicates:
// o.Paths, STORYEVAL_CUDA_LIB_PATH, $CUDA_HOME/lib64, $CUDA_PATH/lib64 and
// the system locations.
func (o Options) SearchPath() []string {
	var dirs []string
	dirs = append(dirs, o.Paths...)
	dirs = append(dirs, filepath.SplitList(os.Getenv(EnvLibPath))...)
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if root := os.Getenv(v); root != "" {
			dirs = append(dirs, filepath.Join(root, "lib64"))
		}
	}
	dirs = append(dirs, systemDirs...)
	seen := make(map[string]bool, len(dirs))
	out := dirs[:0]
	for _, d := range dirs {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Found is where a library was found.
type Found struct {
	Library Library
	// Path is the file opened; a bare file name when only the system's
	// dynamic loader knew where it is.
	Path string
	// Candidates lists the files that were found but rejected, each with
	// why (e.g. "/x/libcuda.so.1: not an ELF shared library").
	Rejected []string
}

// Find returns the first file of lib in o.SearchPath() that is an ELF
// shared library. When none is, the result names the preferred file name
// alone (left to the dynamic loader) and the files that were rejected.
func (o Options) Find(lib Library) Found {
	f := Found{Library: lib}
	for _, dir := range o.SearchPath() {
		for _, name := range lib.FileNames() {
			p := filepath.Join(dir, name)
			err := checkELF(p)
			if err == nil && !o.fits(lib, name) {
				err = fmt.Errorf("a CUDA %d library, newer than the driver's CUDA %d", fileMajor(name), o.MaxCUDAMajor)
			}
			if err == nil {
				f.Path = p
				return f
			}
			if !os.IsNotExist(err) {
				f.Rejected = append(f.Rejected, fmt.Sprintf("%s: %v", p, err))
			}
		}
	}
	return f
}

// fits reports whether file name of lib suits o.MaxCUDAMajor.
func (o Options) fits(lib Library, name string) bool {
	return lib == Driver || o.MaxCUDAMajor == 0 || fileMajor(name) <= o.MaxCUDAMajor
}

// fileMajor returns the major version of a library file name
// ("libcublas.so.13" → 13, "libnvrtc.so.11.2" → 11), 0 if it has none.
func fileMajor(name string) int {
	_, v, ok := strings.Cut(name, ".so.")
	if !ok {
		return 0
	}
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		return 0
	}
	return n
}

// elfMagic begins every ELF file.
var elfMagic = []byte{0x7f, 'E', 'L', 'F'}

// checkELF reports whether path is a readable ELF file (a library or a
// symlink to one); an error satisfying os.IsNotExist when it is absent.
func checkELF(path string) error {
	fh, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return err
		}
		return fmt.Errorf("cannot be read: %v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("cannot be read: %v", err)
	}
	if st.IsDir() {
		return fmt.Errorf("is a folder, not a library")
	}
	head := make([]byte, len(elfMagic))
	if _, err := io.ReadFull(fh, head); err != nil || !bytes.Equal(head, elfMagic) {
		return fmt.Errorf("not an ELF shared library")
	}
	return nil
}
