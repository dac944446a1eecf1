package kernels

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKernelsOnCPUEmulation compiles the kernels as C++ against a CPU
// emulation of CUDA's threads, blocks, shared memory and barriers
// (testdata/emu.h) and runs testdata/emu_test.cpp, which checks each
// kernel's logic — indexing, masks, strided loops, block reductions —
// against a plain loop, without a GPU. Blocks of 8 threads (SE_BLOCK=8)
// keep it fast and make every row longer than a block.
func TestKernelsOnCPUEmulation(t *testing.T) {
	t.Logf("%s", runEmulation(t, "emu_test.cpp", nil))
}

// runEmulation compiles testdata/<main> with the kernels' sources (as
// kernels.cu) and the given extra files beside them, runs it and returns
// its "ok N checks" line, failing the test on a compile error or a failed
// check; without g++ the test is skipped.
func runEmulation(t *testing.T, main string, extra map[string]string) string {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the kernels' CPU emulation with")
	}
	dir := t.TempDir()
	src, _ := Source()
	files := map[string]string{"kernels.cu": src}
	for name, text := range extra {
		files[name] = text
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "emu")
	compile := exec.Command(cxx, "-std=c++20", "-O1", "-pthread", "-w", "-DSE_BLOCK=8", "-I", dir, "-I", testdata,
		"-o", bin, filepath.Join(testdata, main))
	if out, err := compile.CombinedOutput(); err != nil {
		t.Fatalf("compiling the emulation: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("the kernels' checks failed: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "ok ") {
		t.Fatalf("unexpected output: %s", out)
	}
	return strings.TrimSpace(string(out))
}
