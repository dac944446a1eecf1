package trainloop

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestOrderIsSeededPermutation(t *testing.T) {
	a, b := Order(3, 2, 50), Order(3, 2, 50)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed and epoch give two orders")
	}
	if slices.Equal(a, Order(3, 3, 50)) {
		t.Error("two epochs share an order")
	}
	s := slices.Clone(a)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			t.Fatalf("Order is not a permutation of 0..49: %v", a)
		}
	}
}

func TestBatches(t *testing.T) {
	var got [][]int
	var done []int
	err := Batches([]int{4, 3, 2, 1, 0}, 2, func(idx []int, d int) error {
		got, done = append(got, slices.Clone(idx)), append(done, d)
		return nil
	})
	if err != nil || !slices.EqualFunc(got, [][]int{{4, 3}, {2, 1}, {0}}, slices.Equal) || !slices.Equal(done, []int{2, 4, 5}) {
		t.Errorf("batches %v done %v err %v", got, done, err)
	}
	boom := errors.New("boom")
	calls := 0
	if err := Batches([]int{0, 1, 2}, 1, func([]int, int) error { calls++; return boom }); !errors.Is(err, boom) || calls != 1 {
		t.Errorf("error %v after %d calls, want boom after 1", err, calls)
	}
	if g := Gather([]string{"a", "b", "c"}, []int{2, 0}); !slices.Equal(g, []string{"c", "a"}) {
		t.Errorf("Gather = %v", g)
	}
}

func TestRecord(t *testing.T) {
	type epoch struct {
		n   int
		dir string
	}
	var hist []epoch
	if err := Record(&hist, epoch{n: 1}, "", nil, nil); err != nil || len(hist) != 1 {
		t.Fatalf("without root: %v %v", hist, err)
	}
	write := func(root string) (string, error) {
		if len(hist) != 2 {
			return "", errors.New("write does not see the new epoch")
		}
		return root + "/epoch-002", nil
	}
	err := Record(&hist, epoch{n: 2}, "ck", write, func(e *epoch, d string) { e.dir = d })
	if err != nil || hist[1] != (epoch{2, "ck/epoch-002"}) {
		t.Errorf("history %v, error %v", hist, err)
	}
}

func TestDefault(t *testing.T) {
	n, x, s := 0, 0.5, ""
	Default(&n, 3)
	Default(&x, 0.1)
	Default(&s, "a")
	if n != 3 || x != 0.5 || s != "a" {
		t.Errorf("Default gave %d %v %q, want 3 0.5 \"a\"", n, x, s)
	}
}

func TestImproved(t *testing.T) {
	best, since := math.Inf(1), 3
	for i, c := range []struct {
		loss  float64
		want  bool
		since int
	}{{2, true, 0}, {2, false, 1}, {math.NaN(), false, 2}, {1, true, 0}} {
		if got := Improved(&best, &since, c.loss); got != c.want || since != c.since {
			t.Errorf("step %d (loss %v): improved %v since %d, want %v %d", i, c.loss, got, since, c.want, c.since)
		}
	}
	if best != 1 {
		t.Errorf("best %v, want 1", best)
	}
}
