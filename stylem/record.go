package stylem

import "fmt"

// Record is one image captioned in one style: the unit the reference groups
// captions by when it counts document frequencies.
type Record struct {
	// Image identifies the image (PERSONALITY-CAPTIONS "image_hash").
	Image string
	// Style is the style label (PERSONALITY-CAPTIONS "personality").
	Style string
	// Captions are the raw captions (not yet tokenized); at least one.
	Captions []string
}

// groupKey is the reference's key for a record's captions:
// image_hash + "_" + personality.
func (r *Record) groupKey() string { return r.Image + "_" + r.Style }

// validateRecords checks what Build needs from every record.
func validateRecords(records []Record) error {
	if len(records) == 0 {
		return fmt.Errorf("empty corpus")
	}
	for i := range records {
		r := &records[i]
		if r.Style == "" {
			return fmt.Errorf("record %d (image %q) has an empty style", i, r.Image)
		}
		if len(r.Captions) == 0 {
			return fmt.Errorf("record %d (image %q, style %q) has no caption", i, r.Image, r.Style)
		}
	}
	return nil
}
