package story

import "strings"

// Story is one visual story: the text a system (or a person) wrote for an
// ordered sequence of images.
type Story struct {
	// ID identifies the story within its Set.
	ID string
	// Text is the whole story as one string; metrics split it into
	// sentences themselves (RoViST and GROOViST use NLTK's Punkt).
	Text string
	// Images are the story's images in story order. They may be empty when
	// a metric needs only the text.
	Images []Image
}

// Image is one image of a story's sequence.
type Image struct {
	// ID is the image id (a VIST photo_flickr_id); region crops are looked
	// up by it.
	ID string
	// Path is where the image file is, when known ("" otherwise).
	Path string
	// Regions are the image's object regions in their listed order, when
	// known.
	Regions []Region
}

// Region is an object region of an image.
type Region struct {
	// Box is the region's bounding box in pixels: left, top, right, bottom.
	Box [4]float64
	// Label is the box as the regions file wrote it (RoViST and GROOViST
	// name crop files "{image_id}_{label}.jpg"), "" when not from a file.
	Label string
}

// ImageIDs returns the ids of the story's images in order.
func (s Story) ImageIDs() []string {
	ids := make([]string, len(s.Images))
	for i, im := range s.Images {
		ids[i] = im.ID
	}
	return ids
}

// IsBlank reports whether the story has no text other than white space.
func (s Story) IsBlank() bool { return strings.TrimSpace(s.Text) == "" }
