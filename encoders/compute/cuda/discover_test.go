package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

func lib(l cudalib.Library, path, version string, err error) LibraryInfo {
	return LibraryInfo{Library: l, Path: path, Version: version, Err: err}
}

var allLibraries = []LibraryInfo{
	lib(cudalib.Driver, "/usr/local/nvidia/lib64/libcuda.so.1", "13.0", nil),
	lib(cudalib.CuBLAS, "/usr/local/cuda/lib64/libcublas.so.13", "13.0.2", nil),
	lib(cudalib.NVRTC, "/usr/local/cuda/lib64/libnvrtc.so.13", "13.0", nil),
}

func withLibrary(i int, info LibraryInfo) []LibraryInfo {
	out := append([]LibraryInfo(nil), allLibraries...)
	out[i] = info
	return out
}

var h100 = GPU{Index: 0, Name: "NVIDIA H100 80GB HBM3", ComputeCapability: 90, Multiprocessors: 132, TotalMemory: 85 << 30}

// TestReportErrors checks the one-line errors of `-device cuda:N` and the
// summary `storyeval devices` prints, for each thing that can be missing.
func TestReportErrors(t *testing.T) {
	noDriver := errors.New("cuda: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader")
	noBLAS := errors.New("cuda: cuBLAS not found (libcublas.so.13, libcublas.so.12) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader")
	prohibited := h100
	prohibited.Unusable = "its compute mode is Prohibited (nvidia-smi -c): it accepts no programs"
	for _, c := range []struct {
		name        string
		r           Report
		index       int
		wantErr     string // "" = usable
		wantSummary string
	}{
		{"no driver", Report{Libraries: withLibrary(0, lib(cudalib.Driver, "", "", noDriver)), DriverErr: noDriver}, 0,
			noDriver.Error(), "no usable GPU: CUDA driver not found (libcuda.so.1) in "},
		{"no cuBLAS", Report{Libraries: withLibrary(1, lib(cudalib.CuBLAS, "", "", noBLAS)), GPUs: []GPU{h100}}, 0,
			noBLAS.Error(), "no usable GPU: cuBLAS not found"},
		{"driver sees no GPU", Report{Libraries: allLibraries, DriverErr: errors.New("cuda: cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)")}, 0,
			"cuda: cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)", "no usable GPU: cuInit: CUDA_ERROR_NO_DEVICE"},
		{"index beyond the GPUs", Report{Libraries: allLibraries, GPUs: []GPU{h100}}, 1,
			"cuda: no GPU 1: the driver sees 1 (cuda:0 to cuda:0)", "1 usable GPU(s): cuda:0 (NVIDIA H100 80GB HBM3)"},
		{"prohibited", Report{Libraries: allLibraries, GPUs: []GPU{prohibited}}, 0,
			"cuda: GPU 0 (NVIDIA H100 80GB HBM3) cannot be used: its compute mode is Prohibited", "no usable GPU: cuda:0 (NVIDIA H100 80GB HBM3) its compute mode is Prohibited"},
		{"usable", Report{Libraries: allLibraries, GPUs: []GPU{prohibited, func() GPU { g := h100; g.Index = 1; return g }()}}, 1,
			"", "1 usable GPU(s): cuda:1 (NVIDIA H100 80GB HBM3)"},
	} {
		err := c.r.Usable(c.index)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: Usable(%d) = %v, want nil", c.name, c.index, err)
		case c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)):
			t.Errorf("%s: Usable(%d) = %v, want %q…", c.name, c.index, err, c.wantErr)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: error spans lines: %q", c.name, err)
		}
		if s := c.r.Summary(); !strings.HasPrefix(s, c.wantSummary) || strings.Contains(s, "\n") {
			t.Errorf("%s: summary %q, want one line starting %q", c.name, s, c.wantSummary)
		}
	}
}

func TestWriteText(t *testing.T) {
	r := Report{Libraries: allLibraries, GPUs: []GPU{h100}, SearchPath: []string{"/a", "/b"}}
	r.Libraries[2].Rejected = []string{"/a/libnvrtc.so.13: not an ELF shared library"}
	var b strings.Builder
	if err := r.WriteText(&b, true); err != nil {
		t.Fatal(err)
	}
	want := `1 usable GPU(s): cuda:0 (NVIDIA H100 80GB HBM3)
  CUDA driver: /usr/local/nvidia/lib64/libcuda.so.1 (13.0)
  cuBLAS:      /usr/local/cuda/lib64/libcublas.so.13 (13.0.2)
  NVRTC:       /usr/local/cuda/lib64/libnvrtc.so.13 (13.0)
      rejected /a/libnvrtc.so.13: not an ELF shared library
  cuda:0       NVIDIA H100 80GB HBM3, compute capability 9.0, 132 multiprocessors, 85.0 GiB: usable
  searched (then the dynamic loader): /a:/b
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestDiscoverWithFakeLibraries runs the real discovery on folders holding
// files that are not libraries under the CUDA libraries' names. On a
// machine without a CUDA driver installed the report says so in one line
// and lists the rejected file; Open fails with the same line.
func TestDiscoverWithFakeLibraries(t *testing.T) {
	t.Setenv(cudalib.EnvLibPath, "")
	t.Setenv("CUDA_HOME", "")
	t.Setenv("CUDA_PATH", "")
	dir := t.TempDir()
	fake := filepath.Join(dir, "libcuda.so.1")
	if err := os.WriteFile(fake, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := cudalib.Options{Paths: []string{dir}}
	r := Discover(o)
	if len(r.Libraries) != 3 || r.SearchPath[0] != dir {
		t.Fatalf("report has %d libraries, search path %q", len(r.Libraries), r.SearchPath)
	}
	if rej := r.Libraries[0].Rejected; len(rej) == 0 || rej[0] != fake+": not an ELF shared library" {
		t.Errorf("driver's rejected files %q, want %s first", rej, fake)
	}
	if r.Libraries[0].Err == nil {
		t.Skipf("a CUDA driver is installed here (%s): the no-driver report cannot be seen", r.Libraries[0].Path)
	}
	msg := r.Summary()
	if !strings.HasPrefix(msg, "no usable GPU: CUDA driver not found (libcuda.so.1)") || !strings.Contains(msg, "rejected "+fake) {
		t.Errorf("summary %q: want the missing driver and the rejected file", msg)
	}
	_, err := Open(Options{Libraries: o})
	if err == nil || err.Error() != r.Usable(0).Error() {
		t.Errorf("Open: %v, want the report's %v", err, r.Usable(0))
	}
	t.Logf("%s", msg)
}

// TestReportOnThisMachine prints what Discover finds here (what `storyeval
// devices -v` prints); with STORYEVAL_REQUIRE_CUDA=1 (the GPU check) GPU 0
// must be usable. Its errors are one line either way.
func TestReportOnThisMachine(t *testing.T) {
	r := Discover(cudalib.Options{})
	var b strings.Builder
	if err := r.WriteText(&b, true); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
	err := r.Usable(0)
	if os.Getenv(EnvRequireCUDA) == "1" && err != nil {
		t.Fatalf("%s=1 but: %v", EnvRequireCUDA, err)
	}
	if s := r.Summary(); strings.Contains(s, "\n") || (err != nil && strings.Contains(err.Error(), "\n")) {
		t.Errorf("summary %q or error %v spans lines", s, err)
	}
}
