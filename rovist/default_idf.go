package rovist

import (
	"fmt"
	"strconv"
)

// ParseDefaultIDF sets the weight of a noun missing from the idf table
// (UseDefaultIDF, DefaultIDF) from its text, a number; "" leaves such a
// noun an error, the reference's KeyError. An error quotes the text.
func (o *VGOptions) ParseDefaultIDF(s string) error {
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	o.UseDefaultIDF, o.DefaultIDF = true, v
	return nil
}
