package regions

import (
	"reflect"
	"strings"
	"testing"
)

// One parse gives both references' readings: RoViST's integer ids (int()
// collapses "007" and "7") and GROOViST's, identical to what Read gives
// with each option.
func TestViewGivesBothReadingsFromOneParse(t *testing.T) {
	csv := "image_id,bbox\n7,[1]\n12,[2]\n007,[3]\n"
	e, err := Read(strings.NewReader(csv), "e.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ids := range []IDs{StringIDs, IntegerIDs} {
		v, err := e.View(ids)
		if err != nil {
			t.Fatalf("View(%d): %v", ids, err)
		}
		direct, err := Read(strings.NewReader(csv), "e.csv", Options{IDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v, direct) {
			t.Errorf("View(%d) = %+v, Read with the option = %+v", ids, v, direct)
		}
		if v != e {
			t.Errorf("View(%d) copied the regions", ids)
		}
		if got := v.Regions("7"); len(got) != 2 || got[0].BBox != "[1]" || got[1].BBox != "[3]" {
			t.Errorf("View(%d): regions of 7 = %+v, want [1] then [3]", ids, got)
		}
	}
}

// A column with a non-integer id: GROOViST's reading keeps string ids,
// RoViST's fails as Read with IntegerIDs does, naming the first such id.
func TestViewIntegerIDsRefusesStringIDs(t *testing.T) {
	csv := "image_id,bbox\n7,[1]\nx1,[0]\ny2,[2]\n"
	e, err := Read(strings.NewReader(csv), "e.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := e.View(StringIDs); err != nil || len(v.Regions("x1")) != 1 {
		t.Errorf("View(StringIDs) = %v, %v", v, err)
	}
	_, err = e.View(IntegerIDs)
	_, direct := Read(strings.NewReader(csv), "e.csv", Options{IDs: IntegerIDs})
	want := `regions e.csv line 3: image id "x1" is not an integer`
	if err == nil || err.Error() != want || direct == nil || direct.Error() != want {
		t.Errorf("View(IntegerIDs): %v; Read(IntegerIDs): %v; want %q", err, direct, want)
	}
}
