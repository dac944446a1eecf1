package limits

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestLimitsDefaults(t *testing.T) {
	if got := (Limits{}).Bytes(7); got != 7 {
		t.Errorf("zero Limits.Bytes(7) = %d", got)
	}
	if got := (Limits{MaxBytes: 3}).Bytes(7); got != 3 {
		t.Errorf("Limits{MaxBytes: 3}.Bytes(7) = %d", got)
	}
	if got := (Limits{MaxBytes: -1}).Bytes(7); got != 7 {
		t.Errorf("Limits{MaxBytes: -1}.Bytes(7) = %d", got)
	}
	if got := (Limits{}).LineBytes(5); got != 5 {
		t.Errorf("zero Limits.LineBytes(5) = %d", got)
	}
	if got := (Limits{MaxLineBytes: 2}).LineBytes(5); got != 2 {
		t.Errorf("Limits{MaxLineBytes: 2}.LineBytes(5) = %d", got)
	}
}

// An input of exactly the limit reads whole; one byte more fails with a
// *TooLargeError naming the input, and none of the extra byte comes
// through.
func TestReaderBoundary(t *testing.T) {
	for _, tc := range []struct {
		in       string
		limit    int64
		exceeded bool
	}{
		{"abcd", 4, false},
		{"abcd", 5, false},
		{"abcde", 4, true},
		{"", 0, false},
		{"a", 0, true},
		{"abc", math.MaxInt64, false},
	} {
		r := NewReader(strings.NewReader(tc.in), "in.txt", tc.limit)
		got, err := io.ReadAll(r)
		if r.Exceeded() != tc.exceeded {
			t.Errorf("%q limit %d: Exceeded = %v", tc.in, tc.limit, r.Exceeded())
		}
		var tl *TooLargeError
		if tc.exceeded {
			if !errors.As(err, &tl) || tl.Name != "in.txt" || tl.Limit != tc.limit {
				t.Errorf("%q limit %d: err %v, want a TooLargeError naming in.txt", tc.in, tc.limit, err)
			}
			if int64(len(got)) > tc.limit {
				t.Errorf("%q limit %d: read %d bytes", tc.in, tc.limit, len(got))
			}
			continue
		}
		if err != nil || string(got) != tc.in {
			t.Errorf("%q limit %d: read %q, %v", tc.in, tc.limit, got, err)
		}
	}
}

func TestTooLargeErrorMessage(t *testing.T) {
	if got, want := (&TooLargeError{Name: "a.csv", Limit: 10}).Error(), "a.csv: more than 10 bytes"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (&TooLargeError{Name: "g.txt", Limit: 3, Line: true}).Error(), "g.txt: a line longer than 3 bytes"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
