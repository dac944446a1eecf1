package regions

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

// Rows keep file order within an image even when interleaved; integer ids
// are compared by value in both modes when the whole column is integers.
func TestReadGroupsRowsByImageInFileOrder(t *testing.T) {
	csv := "image_name,image_id,bbox,object,score\n" +
		"a.jpg,7,\"[1.5, 2, 3, 4]\",dog,0.9\n" +
		"b.jpg,12,\"[0, 0, 2, 2]\",sky,0.7\n" +
		"a.jpg,007,odd label,cat,0.8\n"
	for _, ids := range []IDs{StringIDs, IntegerIDs} {
		e, err := Read(strings.NewReader(csv), "e.csv", Options{IDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		regs := e.Regions("7")
		want := []Region{
			{ImageID: "7", BBox: "[1.5, 2, 3, 4]", Box: [4]float64{1.5, 2, 3, 4}, HasBox: true, Object: "dog"},
			{ImageID: "7", BBox: "odd label", Object: "cat"},
		}
		if !reflect.DeepEqual(regs, want) {
			t.Errorf("ids %d: regions of 7 = %+v, want %+v", ids, regs, want)
		}
		if got := e.Regions("007"); !reflect.DeepEqual(got, want) {
			t.Errorf("ids %d: regions of 007 = %+v", ids, got)
		}
		if e.Len() != 3 {
			t.Errorf("ids %d: Len = %d", ids, e.Len())
		}
		if got := e.ImageIDs(); !reflect.DeepEqual(got, []string{"7", "12"}) {
			t.Errorf("ids %d: ImageIDs = %q (want numeric order)", ids, got)
		}
		if p := CropPath("d", regs[0].ImageID, regs[0].BBox); p != filepath.Join("d", "7_[1.5, 2, 3, 4].jpg") {
			t.Errorf("crop path %q", p)
		}
	}
}

// GROOViST's ids (StringIDs): a column holding a non-integer id is read as
// strings, compared exactly; RoViST's (IntegerIDs) refuse such a file.
func TestImageIDModes(t *testing.T) {
	csv := "image_id,bbox\nx1,[0]\n007,[1]\n"
	e, err := Read(strings.NewReader(csv), "e.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Regions("007")) != 1 || len(e.Regions("7")) != 0 || len(e.Regions("x1")) != 1 {
		t.Errorf("string ids: 007 %v, 7 %v, x1 %v", e.Regions("007"), e.Regions("7"), e.Regions("x1"))
	}
	if got := e.ImageIDs(); !reflect.DeepEqual(got, []string{"007", "x1"}) {
		t.Errorf("ImageIDs = %q", got)
	}
	_, err = Read(strings.NewReader(csv), "e.csv", Options{IDs: IntegerIDs})
	if err == nil || err.Error() != `regions e.csv line 2: image id "x1" is not an integer` {
		t.Errorf("integer ids: err = %v", err)
	}
}

func TestReadErrorsNameFileAndLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                                       "regions e.csv: empty file",
		"image_id,object\nx,dog\n":               `regions e.csv: the header ("image_id", "object") lacks the image_id or bbox column`,
		"image_id,bbox\nx,\"[1,2,3,4]\",extra\n": "regions e.csv line 2: 3 fields, the header has 2",
		"object,image_id,bbox\ndog,1\n":          "regions e.csv line 2: missing image_id or bbox",
		"image_id,bbox\n1,\n":                    "regions e.csv line 2: empty bbox",
		"image_id,bbox\n1,a/b\n":                 `regions e.csv line 2: bbox "a/b" cannot name a crop file`,
		"image_id,bbox\n\"unterminated,[1]\n":    "regions e.csv: parse error on line 2, column 19: extraneous or missing \" in quoted-field",
	} {
		_, err := Read(strings.NewReader(in), "e.csv", Options{})
		if err == nil || err.Error() != want {
			t.Errorf("Read(%q): err = %v, want %q", in, err, want)
		}
	}
}

// A file of exactly the limit reads; one byte more is a TooLargeError
// naming it.
func TestReadLimit(t *testing.T) {
	csv := "image_id,bbox\n1,[0]\n"
	if _, err := Read(strings.NewReader(csv), "e.csv", Options{Limits: limits.Limits{MaxBytes: int64(len(csv))}}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err := Read(strings.NewReader(csv), "e.csv", Options{Limits: limits.Limits{MaxBytes: int64(len(csv) - 1)}})
	var tl *limits.TooLargeError
	if !errors.As(err, &tl) || tl.Name != "e.csv" || tl.Limit != int64(len(csv)-1) {
		t.Errorf("over the limit: err = %v", err)
	}
}

func TestLoadNamesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "absent.csv")
	if _, err := Load(path, Options{}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load(absent): err = %v", err)
	}
}

// FuzzRead: any input parses or fails with an error; every row lands under
// its image, and bboxes can name a crop file.
func FuzzRead(f *testing.F) {
	f.Add([]byte("image_name,image_id,bbox,object,score\na.jpg,7,\"[1.5, 2, 3, 4]\",dog,0.9\n"), false)
	f.Add([]byte("image_id,bbox\nx,\"[1,2,3,4]\",extra\n"), true)
	f.Add([]byte("\uFEFFbbox,image_id\n[,\n"), false)
	f.Add([]byte("image_id,bbox\n\"1\n2\",x\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, ints bool) {
		o := Options{}
		if ints {
			o.IDs = IntegerIDs
		}
		e, err := Read(strings.NewReader(string(data)), "fuzz", o)
		if err != nil {
			return
		}
		n := 0
		for id, regs := range e.byImage {
			for _, r := range regs {
				if r.ImageID != id {
					t.Fatalf("row of %q filed under %q", r.ImageID, id)
				}
				if r.BBox == "" || strings.ContainsAny(r.BBox, "/\\\x00") {
					t.Fatalf("bbox %q", r.BBox)
				}
			}
			if ints && CanonicalImageID(id) != id {
				t.Fatalf("integer id %q not canonical", id)
			}
			n += len(regs)
		}
		if n != e.Len() {
			t.Fatalf("%d rows grouped, %d read", n, e.Len())
		}
		// View(IntegerIDs) of a StringIDs parse is Read with IntegerIDs.
		if !ints {
			v, verr := e.View(IntegerIDs)
			d, derr := Read(strings.NewReader(string(data)), "fuzz", Options{IDs: IntegerIDs})
			if (verr == nil) != (derr == nil) || (verr != nil && verr.Error() != derr.Error()) || (verr == nil && !reflect.DeepEqual(v, d)) {
				t.Fatalf("View(IntegerIDs) = %v, %v; Read(IntegerIDs) = %v, %v", v, verr, d, derr)
			}
		}
	})
}
