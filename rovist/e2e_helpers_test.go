package rovist

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// expectedTree is a decoded expected.json whose values a test removes as it
// checks them (take), so that leftovers reveal unchecked expectations.
type expectedTree = map[string]any

func readExpected(t *testing.T, path string) expectedTree {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v expectedTree
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// take removes key from m and returns its value; a missing key fails.
func take(t *testing.T, m map[string]any, key string) any {
	t.Helper()
	v, ok := m[key]
	if !ok {
		t.Fatalf("expected value %q missing (have %v)", key, sortedKeys(m))
	}
	delete(m, key)
	return v
}

// takeOpt removes key from m if present.
func takeOpt(m map[string]any, key string) (any, bool) {
	v, ok := m[key]
	delete(m, key)
	return v, ok
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// assertAllChecked fails for every leaf left in v.
func assertAllChecked(t *testing.T, what string, v any) {
	t.Helper()
	var left []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(path+"/"+k, x[k])
			}
		default:
			left = append(left, path)
		}
	}
	walk("", v)
	if len(left) > 0 {
		t.Errorf("%s: %d expected values not checked, e.g. %v", what, len(left), left[:min(len(left), 10)])
	}
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("expected an object, got %T", v)
	}
	return m
}

func asSlice(t *testing.T, v any) []any {
	t.Helper()
	s, ok := v.([]any)
	if !ok && v != nil {
		t.Fatalf("expected an array, got %T", v)
	}
	return s
}

// num returns a JSON number (null as NaN).
func num(t *testing.T, v any) float64 {
	t.Helper()
	if v == nil {
		return math.NaN()
	}
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("expected a number, got %T %v", v, v)
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func nums(t *testing.T, v any) []float64 {
	t.Helper()
	s := asSlice(t, v)
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = num(t, x)
	}
	return out
}

func ints(t *testing.T, v any) []int {
	t.Helper()
	f := nums(t, v)
	out := make([]int, len(f))
	for i, x := range f {
		out[i] = int(x)
		if float64(out[i]) != x {
			t.Fatalf("%v is not an integer", x)
		}
	}
	return out
}

func strs(t *testing.T, v any) []string {
	t.Helper()
	s := asSlice(t, v)
	out := make([]string, len(s))
	for i, x := range s {
		str, ok := x.(string)
		if !ok {
			t.Fatalf("expected a string, got %T", x)
		}
		out[i] = str
	}
	return out
}

// float32Tol is the tolerance for values computed from a float32 forward
// pass: 1e-5 absolute, relative above 1.
const float32Tol = 1e-5

func closeF32(got, want float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	return math.Abs(got-want) <= float32Tol*max(1, math.Abs(want))
}

// counter counts checked values and failures per fixture file.
type counter struct {
	checked, failed map[string]int
}

func newCounter() *counter { return &counter{checked: map[string]int{}, failed: map[string]int{}} }

func (c *counter) ok(t *testing.T, file string, good bool, format string, args ...any) {
	t.Helper()
	c.checked[file]++
	if !good {
		c.failed[file]++
		if c.failed[file] <= 20 {
			t.Errorf("%s: %s", file, fmt.Sprintf(format, args...))
		}
	}
}

func (c *counter) close(t *testing.T, file, what string, got, want float64) {
	t.Helper()
	c.ok(t, file, closeF32(got, want), "%s = %v, want %v", what, got, want)
}

func (c *counter) closeAll(t *testing.T, file, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		c.ok(t, file, false, "%s: %d values, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		c.close(t, file, fmt.Sprintf("%s[%d]", what, i), got[i], want[i])
	}
}

func (c *counter) equal(t *testing.T, file, what string, got, want any) {
	t.Helper()
	c.ok(t, file, fmt.Sprint(got) == fmt.Sprint(want), "%s = %v, want %v", what, got, want)
}

func (c *counter) report(t *testing.T) {
	t.Helper()
	files := make([]string, 0, len(c.checked))
	for f := range c.checked {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		t.Logf("%s: %d/%d values match", f, c.checked[f]-c.failed[f], c.checked[f])
	}
}

// findOne and findDirWith locate fixture files by pattern
// (e2efixtures.FindOne, FindDirWith).
var findOne, findDirWith = e2efixtures.FindOne, e2efixtures.FindDirWith

// readScoreCSV reads an original scorer output "story_id,<score>" with
// pandas' empty field for NaN, in file order.
func readScoreCSV(t *testing.T, path string) (ids []string, scores []float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for _, l := range lines[1:] {
		id, v, ok := strings.Cut(l, ",")
		if !ok {
			t.Fatalf("%s: bad line %q", path, l)
		}
		f := math.NaN()
		if v != "" {
			if _, err := fmt.Sscan(v, &f); err != nil {
				t.Fatalf("%s: bad score %q", path, v)
			}
		}
		ids = append(ids, id)
		scores = append(scores, f)
	}
	return ids, scores
}
