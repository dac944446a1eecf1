package device

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// TestWriteReport: with a file that is no library under libcuda.so.1's
// name and no driver installed, the text report is the one summary line,
// the JSON names the rejected file, a GPU to check fails after the report,
// the CPU passes and a name that is no device fails before it.
func TestWriteReport(t *testing.T) {
	lib, fake := notALibrary(t)
	want := "no usable GPU: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader; rejected " + fake + ": not an ELF shared library\n"
	var buf bytes.Buffer
	if err := WriteReport(&buf, ReportOptions{Libraries: lib, Check: "cpu"}); err != nil || buf.String() != want {
		t.Fatalf("text: %q, err %v; want %q", buf.String(), err, want)
	}
	buf.Reset()
	err := WriteReport(&buf, ReportOptions{Libraries: lib, JSON: true, Check: "cuda:0"})
	var rep cuda.ReportJSON
	if jerr := json.Unmarshal(buf.Bytes(), &rep); jerr != nil || rep.Summary+"\n" != want || len(rep.Libraries) != 3 ||
		len(rep.Libraries[0].Rejected) != 1 || rep.SearchPath[0] != lib.Paths[0] || !strings.HasPrefix(buf.String(), "{\n  \"summary\": ") {
		t.Fatalf("json (err %v):\n%s", jerr, buf.String())
	}
	if err == nil || !strings.HasPrefix(err.Error(), "cuda: CUDA driver not found (libcuda.so.1)") {
		t.Fatalf("check cuda:0: err %v, want the missing driver", err)
	}
	buf.Reset()
	if err := WriteReport(&buf, ReportOptions{Libraries: lib, Check: "gpu"}); err == nil || !strings.Contains(err.Error(), `device "gpu": want cpu, cuda or cuda:N`) || buf.Len() != 0 {
		t.Fatalf("check gpu: err %v, output %q", err, buf.String())
	}
}

// notALibrary returns library options whose only folder holds a file that
// is no library under libcuda.so.1's name, and that file; it skips the
// test where a CUDA driver is installed.
func notALibrary(t *testing.T) (cudalib.Options, string) {
	t.Setenv(cudalib.EnvLibPath, "")
	lib := cudalib.Options{Paths: []string{t.TempDir()}}
	fake := filepath.Join(lib.Paths[0], "libcuda.so.1")
	if err := os.WriteFile(fake, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := cuda.Discover(lib); r.Libraries[0].Err == nil {
		t.Skipf("a CUDA driver is installed here (%s): the no-driver report cannot be seen", r.Libraries[0].Path)
	}
	return lib, fake
}
