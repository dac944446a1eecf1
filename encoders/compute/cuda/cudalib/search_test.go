package cudalib

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realSharedLibrary returns a shared library of the system (libm) to copy
// under a CUDA library's name: an ELF file that loads but lacks CUDA's
// functions.
func realSharedLibrary(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/lib/x86_64-linux-gnu/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6", "/lib64/libm.so.6", "/usr/lib/libm.so.6"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no libm.so.6 at the usual places to stand in for a library")
	return ""
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSearchPathOrder(t *testing.T) {
	t.Setenv(EnvLibPath, "/env/a::/env/b:/opt/first")
	t.Setenv("CUDA_HOME", "/cudahome")
	t.Setenv("CUDA_PATH", "")
	got := Options{Paths: []string{"/opt/first", "/opt/second/"}}.SearchPath()
	want := []string{"/opt/first", "/opt/second", "/env/a", "/env/b", "/cudahome/lib64"}
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("search path starts %q, want %q (options, then %s in order, then CUDA_HOME; duplicates and empty entries dropped)", got[:len(want)], want, EnvLibPath)
	}
	if got[len(want)] != systemDirs[0] || len(got) != len(want)+len(systemDirs) {
		t.Errorf("search path %q: want the %d system folders after %q", got, len(systemDirs), want)
	}
}

func TestFindRejectsNonLibraries(t *testing.T) {
	t.Setenv(EnvLibPath, "")
	empty, bad, good := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "libcublas.so.13"), []byte("not a library\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(bad, "libcublas.so.12"), 0o755); err != nil {
		t.Fatal(err)
	}
	lib := realSharedLibrary(t)
	copyFile(t, lib, filepath.Join(good, "libcublas.so.12"))
	copyFile(t, lib, filepath.Join(good, "libcublas.so.13"))

	f := Options{Paths: []string{empty, bad, good}}.Find(CuBLAS)
	if want := filepath.Join(good, "libcublas.so.13"); f.Path != want {
		t.Errorf("found %q, want %q (the first folder holding an ELF file, CUDA 13 before 12)", f.Path, want)
	}
	wantRejected := []string{
		filepath.Join(bad, "libcublas.so.13") + ": not an ELF shared library",
		filepath.Join(bad, "libcublas.so.12") + ": is a folder, not a library",
	}
	if !slices.Equal(f.Rejected, wantRejected) {
		t.Errorf("rejected %q, want %q", f.Rejected, wantRejected)
	}

	// Only the empty folder and the bad one: nothing there, so the library
	// is left to the system's folders or the dynamic loader.
	f = Options{Paths: []string{empty, bad}}.Find(CuBLAS)
	if strings.HasPrefix(f.Path, empty) || strings.HasPrefix(f.Path, bad) {
		t.Errorf("found %q in a folder without a library", f.Path)
	}
}

func TestEnvVarFolderIsSearched(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, realSharedLibrary(t), filepath.Join(dir, "libnvrtc.so.12"))
	t.Setenv(EnvLibPath, "/nonexistent:"+dir)
	if f := (Options{}).Find(NVRTC); f.Path != filepath.Join(dir, "libnvrtc.so.12") {
		t.Errorf("with %s=%s found %q", EnvLibPath, os.Getenv(EnvLibPath), f.Path)
	}
}

func TestOpenErrorsAreOneLine(t *testing.T) {
	t.Setenv(EnvLibPath, "")
	dir := t.TempDir()
	text := filepath.Join(dir, "libcuda.so.1")
	if err := os.WriteFile(text, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	libm := filepath.Join(t.TempDir(), "libcuda.so.1")
	copyFile(t, realSharedLibrary(t), libm)
	noLt := t.TempDir()
	copyFile(t, realSharedLibrary(t), filepath.Join(noLt, "libcublas.so.12"))

	for _, c := range []struct {
		name string
		err  func() error
		want []string
	}{
		{"not a library", func() error { _, err := open(Options{}, Found{Library: Driver, Path: text}); return err },
			[]string{"cuda: " + text + " cannot be loaded"}},
		{"lacks the driver's functions", func() error { _, err := OpenDriver(Options{Paths: []string{filepath.Dir(libm)}}); return err },
			[]string{"cuda: CUDA driver (" + libm + ") lacks cuInit"}},
		{"cuBLAS without its cublasLt", func() error { _, err := OpenBLAS(Options{Paths: []string{noLt}}); return err },
			[]string{"cuda: " + filepath.Join(noLt, "libcublas.so.12") + " needs " + filepath.Join(noLt, "libcublasLt.so.12")}},
		{"found nowhere", func() error {
			return notFound(Found{Library: Driver, Rejected: []string{text + ": not an ELF shared library", "x: y"}})
		}, []string{"cuda: CUDA driver not found (libcuda.so.1) in " + EnvLibPath, "rejected " + text + ": not an ELF shared library and 1 more"}},
	} {
		err := c.err()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("%s: error spans lines: %q", c.name, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", c.name, msg, w)
			}
		}
	}
}

// TestFindSkipsNewerThanTheDriver checks that with the driver's CUDA major
// version set, a newer cuBLAS is passed over (and said why) for an older
// one that the driver runs.
func TestFindSkipsNewerThanTheDriver(t *testing.T) {
	t.Setenv(EnvLibPath, "")
	dir := t.TempDir()
	lib := realSharedLibrary(t)
	copyFile(t, lib, filepath.Join(dir, "libcublas.so.13"))
	copyFile(t, lib, filepath.Join(dir, "libcublas.so.12"))
	f := Options{Paths: []string{dir}, MaxCUDAMajor: 12}.Find(CuBLAS)
	if want := filepath.Join(dir, "libcublas.so.12"); f.Path != want {
		t.Errorf("driver of CUDA 12: found %q, want %q", f.Path, want)
	}
	if want := filepath.Join(dir, "libcublas.so.13") + ": a CUDA 13 library, newer than the driver's CUDA 12"; len(f.Rejected) != 1 || f.Rejected[0] != want {
		t.Errorf("rejected %q, want [%q]", f.Rejected, want)
	}
	if f := (Options{Paths: []string{dir}, MaxCUDAMajor: 13}).Find(CuBLAS); f.Path != filepath.Join(dir, "libcublas.so.13") {
		t.Errorf("driver of CUDA 13: found %q", f.Path)
	}
	for name, want := range map[string]int{"libcublas.so.13": 13, "libnvrtc.so.11.2": 11, "libcuda.so.1": 1, "libx.so": 0} {
		if got := fileMajor(name); got != want {
			t.Errorf("fileMajor(%q) = %d, want %d", name, got, want)
		}
	}
}
