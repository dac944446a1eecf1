package encoders

import (
	"os"
	"os/exec"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/tensor"
)

// blasChildEnv marks the re-executed test binary of TestBLASIsChosenLazily.
const blasChildEnv = "STORYEVAL_ENCODERS_BLAS_CHILD"

// TestBLASIsChosenLazily runs in a fresh process (the test binary, re-run
// on one test) so that no other test has built a model yet: importing the
// package must leave gorgonia's BLAS as gorgonia set it, and building the
// first model must install DefaultBLAS.
func TestBLASIsChosenLazily(t *testing.T) {
	if os.Getenv(blasChildEnv) == "" {
		for _, mode := range []string{"lazy", "explicit", "tensor.Use"} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBLASIsChosenLazily$", "-test.count=1")
			cmd.Env = append(os.Environ(), blasChildEnv+"="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: child test failed: %v\n%s", mode, err, out)
			}
		}
		return
	}
	if _, ok := tensor.WhichBLAS().(gonum.Implementation); !ok {
		t.Fatalf("after import, tensor.WhichBLAS() is %T, want gorgonia's default gonum.Implementation", tensor.WhichBLAS())
	}
	want := reflect.TypeOf(DefaultBLAS())
	switch os.Getenv(blasChildEnv) {
	case "lazy":
		tinyBERT(t)
	case "explicit":
		UseDefaultBLAS()
	case "tensor.Use":
		// A program that chose a BLAS itself keeps it.
		tensor.Use(gonumMarker{})
		tinyBERT(t)
		want = reflect.TypeOf(gonumMarker{})
	}
	if got := reflect.TypeOf(tensor.WhichBLAS()); got != want {
		t.Fatalf("%s: tensor.WhichBLAS() is %v, want %v", os.Getenv(blasChildEnv), got, want)
	}
}

// gonumMarker is gonum's BLAS under another type, standing for a BLAS a
// program installs with tensor.Use.
type gonumMarker struct{ gonum.Implementation }

func TestUseBLASOverridesDefault(t *testing.T) {
	defer UseDefaultBLAS() // the tests after this one measure with the build's BLAS
	UseBLAS(gonumMarker{})
	m := tinyBERT(t)
	if _, ok := tensor.WhichBLAS().(gonumMarker); !ok {
		t.Fatalf("building a model replaced the BLAS chosen with UseBLAS by %T", tensor.WhichBLAS())
	}
	if _, err := m.Forward(t.Context(), nil, ForwardOptions{}); err == nil {
		t.Fatal("empty batch accepted")
	}
}
