package kernels

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// entryRE matches a kernel definition and captures its name and parameter
// list.
var entryRE = regexp.MustCompile(`extern "C" __global__ void (\w+)\(([^)]*)\)`)

// paramType classifies one C parameter declaration ("const float* gamma").
func paramType(t *testing.T, kernel, decl string) Param {
	decl = strings.TrimSpace(decl)
	if strings.Contains(decl, "*") {
		return Ptr
	}
	words := strings.Fields(decl)
	switch strings.Join(words[:len(words)-1], " ") {
	case "int":
		return I32
	case "long long":
		return I64
	case "unsigned long long":
		return U64
	case "float":
		return F32
	case "double":
		return F64
	}
	t.Errorf("%s: parameter %q has a type the launcher cannot pack", kernel, decl)
	return 0
}

// TestKernelTableMatchesSources checks that the sources define exactly the
// kernels of Kernels, each with the parameter types the table gives, so
// that the backend never launches a missing kernel or packs its arguments
// wrongly.
func TestKernelTableMatchesSources(t *testing.T) {
	src, _ := Source()
	defined := map[string][]Param{}
	for _, m := range entryRE.FindAllStringSubmatch(src, -1) {
		name := m[1]
		if _, dup := defined[name]; dup {
			t.Errorf("kernel %s defined twice", name)
		}
		var ps []Param
		for _, d := range strings.Split(m[2], ",") {
			ps = append(ps, paramType(t, name, d))
		}
		defined[name] = ps
	}
	if len(defined) == 0 {
		t.Fatal("no kernel found in the sources")
	}
	listed := map[string]bool{}
	for _, k := range Kernels {
		listed[k.Name] = true
		got, ok := defined[k.Name]
		if !ok {
			t.Errorf("kernel %s is in the table but not in the sources", k.Name)
			continue
		}
		if string(got) != string(k.Params) {
			t.Errorf("kernel %s: sources take %q, the table says %q", k.Name, got, k.Params)
		}
	}
	for name := range defined {
		if !listed[name] {
			t.Errorf("kernel %s is in the sources but not in the table", name)
		}
	}
	t.Logf("%d kernels in %d files", len(defined), len(files))
}

// defineValue returns the integer value of a #define in the sources.
func defineValue(t *testing.T, src, name string) int {
	m := regexp.MustCompile(`#define ` + name + ` (\d+)`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("#define %s missing from the sources", name)
	}
	v, _ := strconv.Atoi(m[1])
	return v
}

// TestConstantsMatchSources checks the Go copies of the sources' constants.
func TestConstantsMatchSources(t *testing.T) {
	src, _ := Source()
	if got := defineValue(t, src, "SE_BLOCK"); got != BlockSize {
		t.Errorf("SE_BLOCK is %d, BlockSize %d", got, BlockSize)
	}
	for name, want := range map[string]int{
		"SE_ACT_NONE": ActNone, "SE_ACT_GELU": ActGELU, "SE_ACT_GELU_TANH": ActGELUTanh,
		"SE_ACT_QUICK_GELU": ActQuickGELU, "SE_ACT_RELU": ActReLU, "SE_ACT_TANH": ActTanh,
	} {
		if got := defineValue(t, src, name); got != want {
			t.Errorf("%s is %d, the Go constant %d", name, got, want)
		}
	}
}

// TestSourceOrder checks that every embedded file is concatenated once,
// the helpers first (the kernels use them).
func TestSourceOrder(t *testing.T) {
	entries, err := sources.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("%d files embedded, %d concatenated (%v)", len(entries), len(files), files)
	}
	src, _ := Source()
	if !strings.HasPrefix(src, "// ---- common.cuh ----") {
		t.Errorf("the sources do not start with common.cuh: %.40q", src)
	}
}
