package cuda

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// EnvRequireCUDA, set to 1, turns the skips of the GPU tests into failures
// (the prepared GPU check sets it, so that a machine whose GPU cannot be
// opened fails instead of passing with everything skipped).
const EnvRequireCUDA = "STORYEVAL_REQUIRE_CUDA"

// shared is the GPU the tests share (opened once: each Open compiles the
// kernels), with why it could not be opened.
var shared struct {
	once sync.Once
	d    *Device
	err  error
}

// TestMain closes the shared GPU after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.d != nil {
		if err := shared.d.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the GPU:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// openGPU returns GPU 0 for a test, or skips it saying why.
func openGPU(t testing.TB) *Device {
	t.Helper()
	shared.once.Do(func() { shared.d, shared.err = Open(Options{}) })
	if shared.err != nil {
		if os.Getenv(EnvRequireCUDA) == "1" {
			t.Fatalf("%s=1 but: %v", EnvRequireCUDA, shared.err)
		}
		t.Skipf("no usable GPU: %v", shared.err)
	}
	return shared.d
}

func randomValues(r *rand.Rand, n int, scale float32) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = (r.Float32()*2 - 1) * scale
	}
	return x
}

// upload copies x to the device, failing the test on error.
func upload(t testing.TB, q *Queue, x []float32) Buffer {
	t.Helper()
	b, err := q.Upload(x)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = q.Free(b) })
	return b
}

// uploadInts copies int32 values to the device (as their bits).
func uploadInts(t testing.TB, q *Queue, x []int32) Buffer {
	t.Helper()
	f := make([]float32, len(x))
	for i, v := range x {
		f[i] = math.Float32frombits(uint32(v))
	}
	return upload(t, q, f)
}

func download(t testing.TB, q *Queue, b Buffer) []float32 {
	t.Helper()
	out := make([]float32, b.N)
	if err := q.Download(out, b); err != nil {
		t.Fatal(err)
	}
	return out
}

func launch(t testing.TB, q *Queue, name string, s Shape, a *cudalib.Args) {
	t.Helper()
	if err := q.Launch(name, s, a); err != nil {
		t.Fatal(err)
	}
}

// closeTo fails the test at the first element of got that differs from
// want by more than tol·max(1, |want|).
func closeTo(t testing.TB, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		if d > tol*math.Max(1, math.Abs(float64(want[i]))) || math.IsNaN(float64(got[i])) != math.IsNaN(float64(want[i])) {
			t.Fatalf("%s: element %d is %v, want %v (tolerance %g)", what, i, got[i], want[i], tol)
		}
		worst = math.Max(worst, d)
	}
	t.Logf("%s: %d values, largest difference %.3g", what, len(want), worst)
}
