package kernels

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// EnvRequireNVRTC, set to 1, turns the skip of the compile test into a
// failure when NVRTC cannot be loaded (the GPU check sets it).
const EnvRequireNVRTC = "STORYEVAL_REQUIRE_NVRTC"

// openNVRTC loads NVRTC or skips the test, saying why.
func openNVRTC(t *testing.T) *cudalib.Compiler {
	t.Helper()
	c, err := cudalib.OpenNVRTC(cudalib.Options{})
	if err != nil {
		if os.Getenv(EnvRequireNVRTC) == "1" {
			t.Fatalf("%s=1 but: %v", EnvRequireNVRTC, err)
		}
		t.Skipf("no NVRTC to compile the kernels with (install libnvrtc, e.g. Debian non-free's libnvrtc11.2, or point %s at one): %v", cudalib.EnvLibPath, err)
	}
	t.Logf("NVRTC %s at %s", c.Version, c.Path)
	return c
}

// ptxEntryRE captures a PTX entry's name and its parameter list.
var ptxEntryRE = regexp.MustCompile(`(?s)\.entry (\w+)\(\s*(.*?)\)`)

// ptxParam maps a table parameter type to its PTX parameter type.
var ptxParam = map[Param]string{Ptr: ".u64", I32: ".u32", I64: ".u64", U64: ".u64", F32: ".f32", F64: ".f64"}

// TestKernelsCompile compiles every kernel with NVRTC (no GPU needed) for
// the oldest and newest architectures this NVRTC supports from Volta on, and
// checks that the PTX has every kernel of the table with the parameter
// types the launcher packs.
func TestKernelsCompile(t *testing.T) {
	c := openNVRTC(t)
	archs, err := c.SupportedArchs()
	if err != nil {
		t.Fatal(err)
	}
	var pick []int
	for _, a := range archs {
		if a >= 70 && (len(pick) == 0 || a == archs[len(archs)-1]) {
			pick = append(pick, a)
		}
	}
	if len(pick) == 0 {
		t.Fatalf("NVRTC %s supports none of sm_70 and later: %v", c.Version, archs)
	}
	src, name := Source()
	for _, arch := range pick {
		ptx, log, err := c.Compile(src, name, Options(arch))
		if err != nil {
			t.Fatalf("compute_%d: %v\n%s", arch, err, log)
		}
		if strings.TrimSpace(log) != "" {
			t.Errorf("compute_%d: NVRTC warned:\n%s", arch, log)
		}
		entries := map[string]string{}
		for _, m := range ptxEntryRE.FindAllStringSubmatch(string(ptx), -1) {
			entries[m[1]] = m[2]
		}
		for _, k := range Kernels {
			params, ok := entries[k.Name]
			if !ok {
				t.Errorf("compute_%d: PTX lacks kernel %s", arch, k.Name)
				continue
			}
			var got []string
			for _, p := range strings.Split(params, ",") {
				if f := strings.Fields(p); len(f) >= 2 {
					got = append(got, f[1])
				}
			}
			var want []string
			for _, p := range k.Params {
				want = append(want, ptxParam[p])
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("compute_%d: %s takes %v in PTX, the table says %v", arch, k.Name, got, want)
			}
		}
		t.Logf("compute_%d: %d kernels, %d bytes of PTX", arch, len(entries), len(ptx))
	}
}

// TestCompileErrorIsOneLine checks that a kernel that does not compile
// gives one line naming the source and the first error.
func TestCompileErrorIsOneLine(t *testing.T) {
	c := openNVRTC(t)
	_, log, err := c.Compile(`extern "C" __global__ void k(float* x) { x[0] = undefined_name; }`, "broken.cu", Options(75))
	if err == nil {
		t.Fatal("a kernel using an undefined name compiled")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "NVRTC_ERROR_COMPILATION") ||
		!strings.Contains(msg, "broken.cu") || !strings.Contains(msg, "undefined_name") {
		t.Errorf("error %q: want one line naming NVRTC_ERROR_COMPILATION, broken.cu and undefined_name", msg)
	}
	if !strings.Contains(log, "undefined_name") {
		t.Errorf("log %q lacks the error", log)
	}
}
