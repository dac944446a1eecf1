package trainckpt

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

func TestWriteFolderListLatestPrune(t *testing.T) {
	root := t.TempDir()
	for epoch := 1; epoch <= 3; epoch++ {
		err := WriteFolder(EpochDir(root, epoch), func(tmp string) error {
			return WriteState(tmp, map[string]int{"epoch": epoch})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A failed write leaves neither the folder nor its temporary sibling.
	boom := errors.New("boom")
	if err := WriteFolder(EpochDir(root, 4), func(string) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("WriteFolder error %v, want %v", err, boom)
	}
	// A folder without the state file is not a checkpoint.
	if err := os.Mkdir(filepath.Join(root, "epoch-009"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 4 {
		t.Errorf("root holds %d entries, want 3 checkpoints and epoch-009", len(entries))
	}
	if got, want := List(root), []string{"epoch-001", "epoch-002", "epoch-003"}; !slices.Equal(got, want) {
		t.Errorf("List = %v, want %v", got, want)
	}
	if got, ok := Latest(root); !ok || got != filepath.Join(root, "epoch-003") {
		t.Errorf("Latest(root) = %q, %v", got, ok)
	}
	if got, ok := Latest(EpochDir(root, 2)); !ok || got != EpochDir(root, 2) {
		t.Errorf("Latest(epoch-002) = %q, %v", got, ok)
	}
	if _, ok := Latest(t.TempDir()); ok {
		t.Error("Latest found a checkpoint in an empty folder")
	}
	var st map[string]int
	if err := ReadState(EpochDir(root, 2), &st); err != nil || st["epoch"] != 2 {
		t.Errorf("ReadState = %v, %v; want epoch 2", st, err)
	}
	if dir, err := ReadLatest(root, "test", &st); err != nil || dir != EpochDir(root, 3) || st["epoch"] != 3 {
		t.Errorf("ReadLatest = %q, %v, %v; want epoch-003", dir, st, err)
	}
	if _, err := ReadLatest(t.TempDir(), "test training", &st); err == nil || !strings.Contains(err.Error(), "no test training checkpoint") {
		t.Errorf("ReadLatest of an empty folder: %v", err)
	}
	Prune(root, 1, 1)
	if got := List(root); !slices.Equal(got, []string{"epoch-001", "epoch-003"}) {
		t.Errorf("after Prune(1, spare 1): %v", got)
	}
	Prune(root, 1)
	if got := List(root); !slices.Equal(got, []string{"epoch-003"}) {
		t.Errorf("after Prune(1): %v", got)
	}
}

func TestMomentsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := []Moment{
		{Name: "a.weight", Shape: []int{2, 2}, M: []float32{1, 2, 3, 4}, V: []float32{5, 6, 7, 8}},
		{Name: "b", Shape: []int{1}, M: []float32{-1}, V: []float32{float32(math.Pi)}},
	}
	if err := WriteMoments(dir, in); err != nil {
		t.Fatal(err)
	}
	out := []Moment{
		{Name: "a.weight", Shape: []int{2, 2}, M: make([]float32, 4), V: make([]float32, 4)},
		{Name: "b", Shape: []int{1}, M: make([]float32, 1), V: make([]float32, 1)},
	}
	if err := ReadMoments(dir, out, openCheckpoint); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if !slices.Equal(in[i].M, out[i].M) || !slices.Equal(in[i].V, out[i].V) {
			t.Errorf("moment %s: read %v %v, wrote %v %v", in[i].Name, out[i].M, out[i].V, in[i].M, in[i].V)
		}
	}
	bad := []Moment{{Name: "b", Shape: []int{2}, M: make([]float32, 2), V: make([]float32, 2)}}
	if err := ReadMoments(dir, bad, openCheckpoint); err == nil || !strings.Contains(err.Error(), `"m.b"`) {
		t.Errorf("a shape mismatch gives %v, want an error naming m.b", err)
	}
}

func TestFiniteOr(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if Finite(v) != nil {
			t.Errorf("Finite(%v) is not nil", v)
		}
	}
	if p := Finite(1.5); p == nil || *p != 1.5 || Or(p, 0) != 1.5 {
		t.Error("Finite(1.5) does not round-trip through Or")
	}
	if !math.IsNaN(Or(nil, math.NaN())) {
		t.Error("Or(nil, NaN) is not NaN")
	}
}

func TestMomentsBuildsInOrder(t *testing.T) {
	names := []string{"x", "y", "z"}
	got := Moments(len(names), func(i int) Moment { return Moment{Name: names[i], Shape: []int{i}} })
	for i, m := range got {
		if m.Name != names[i] || m.Shape[0] != i {
			t.Errorf("moment %d is %+v", i, m)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d moments, want 3", len(got))
	}
}

func TestWriteEpochHoldsModelMomentsAndState(t *testing.T) {
	root := t.TempDir()
	save := func(dir string) error { return os.WriteFile(filepath.Join(dir, "model.bin"), []byte("w"), 0o644) }
	mo := []Moment{{Name: "w", Shape: []int{1}, M: []float32{0.5}, V: []float32{0.25}}}
	dir, err := WriteEpoch(root, 7, save, mo, map[string]int{"epoch": 7})
	if err != nil || dir != filepath.Join(root, "epoch-007") {
		t.Fatalf("WriteEpoch = %q, %v", dir, err)
	}
	for _, name := range []string{"model.bin", OptimizerFile, StateFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the checkpoint lacks %s: %v", name, err)
		}
	}
	back := []Moment{{Name: "w", Shape: []int{1}, M: make([]float32, 1), V: make([]float32, 1)}}
	if err := ReadMoments(dir, back, openCheckpoint); err != nil || back[0].M[0] != 0.5 || back[0].V[0] != 0.25 {
		t.Errorf("moments read back %+v, %v", back[0], err)
	}
}

// openCheckpoint opens a tensor file with encoders/checkpoint, as the
// trainers do.
func openCheckpoint(path string) (TensorFile, error) {
	st, err := checkpoint.Open(path)
	if err != nil {
		return nil, err
	}
	return st, nil
}
