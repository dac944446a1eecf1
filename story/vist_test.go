package story

import (
	"reflect"
	"strings"
	"testing"
)

// sis is a VIST story-in-sequence excerpt laid out as the release's files
// (sentences listed out of photo order on purpose).
const sis = `{"images": [], "annotations": [
 [{"story_id": "30355", "photo_flickr_id": "2", "worker_arranged_photo_order": 1, "text": "we went inside .", "original_text": "We went inside."}],
 [{"story_id": "30355", "photo_flickr_id": "1", "worker_arranged_photo_order": 0, "text": "the building was big .", "original_text": "The building was big."}],
 [{"story_id": "30356", "photo_flickr_id": "7", "worker_arranged_photo_order": 0, "text": "a party .", "original_text": "A party."}]
]}`

func TestParseVISTOrdersSentencesByPhotoOrder(t *testing.T) {
	set, err := ParseVIST([]byte(sis), "sis.json", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.IDs(); !reflect.DeepEqual(got, []string{"30355", "30356"}) {
		t.Fatalf("ids %q", got)
	}
	st := set.At(0)
	if st.Text != "the building was big . we went inside ." || !reflect.DeepEqual(st.ImageIDs(), []string{"1", "2"}) {
		t.Fatalf("story %+v", st)
	}
	orig, err := ParseVIST([]byte(sis), "sis.json", ReadOptions{OriginalText: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := orig.At(0).Text; got != "The building was big. We went inside." {
		t.Fatalf("original text %q", got)
	}
}

func TestParseVISTErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{}`, `no "annotations" list`},
		{`[]`, "not a VIST story-in-sequence file"},
		{`{"annotations": [[]]}`, "annotations[0] holds 0 sentences"},
		{`{"annotations": [[{"photo_flickr_id": "1", "worker_arranged_photo_order": 0, "text": "t"}]]}`, "has no story_id"},
		{`{"annotations": [[{"story_id": "s", "worker_arranged_photo_order": 0, "text": "t"}]]}`, `story "s": annotations[0] has no photo_flickr_id`},
		{`{"annotations": [[{"story_id": "s", "photo_flickr_id": "1", "text": "t"}]]}`, "no worker_arranged_photo_order"},
		{`{"annotations": [[{"story_id": "s", "photo_flickr_id": "1", "worker_arranged_photo_order": 0}]]}`, "has no text"},
		{`{"annotations": [[{"story_id": "s", "photo_flickr_id": "1", "worker_arranged_photo_order": 0, "text": "a"}], [{"story_id": "s", "photo_flickr_id": "2", "worker_arranged_photo_order": 0, "text": "b"}]]}`, "repeats worker_arranged_photo_order 0"},
	} {
		_, err := ParseVIST([]byte(tc.data), "sis.json", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "sis.json: ") {
			t.Errorf("ParseVIST(%s) = %v, want an error naming sis.json and saying %q", tc.data, err, tc.want)
		}
	}
}
