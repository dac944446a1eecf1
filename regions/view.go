package regions

// View returns the regions as read with ids, from this one parse: a
// caller that needs both references' readings of a file (storyeval score
// runs RoViST-VG and GROOViST on the same regions CSV) reads it once with
// StringIDs and takes RoViST's reading with View(IntegerIDs).
//
// The two readings differ only in whether a non-integer id is allowed:
// when every image_id is an integer, GROOViST's pandas column is int64
// too, so both compare ids by value ("007" and "7" name one image, as
// RoViST's int(image_id) does) and View returns e itself. When some id is
// not an integer, StringIDs keeps the ids as strings and IntegerIDs fails,
// as Read with IntegerIDs does, naming the first such id and its line.
func (e *Entities) View(ids IDs) (*Entities, error) {
	if ids == IntegerIDs && !e.ints {
		return nil, integerIDError(e.name, e.nonIntegerAt, e.nonInteger)
	}
	return e, nil
}
