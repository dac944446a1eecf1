// Package regions reads the regions files of the grounding metrics — the
// object regions a detector found in each story image, one CSV row per
// region (vist_entities.csv, aesop_entities.csv, vwp_entities.csv) — and
// names the crop file of each region.
//
// RoViST-VG and GROOViST read the same layout with pandas, but compare
// image ids differently: RoViST selects rows with df["image_id"] ==
// int(image_id), so every id is an integer compared by value (IntegerIDs);
// GROOViST keeps pandas' column type, so ids are integers only when the
// whole column is, and strings otherwise (StringIDs, the zero value).
package regions
