// Package story holds the visual stories the metrics score: a Story (an id,
// its text and the ordered images it was written for, with their regions
// when known) and a Set of stories keyed by id in a stable order, with
// readers for the two layouts the reference code reads:
//
//   - a JSON object {id: story text}, or {id: {"story": text, "images":
//     [image ids]}} as RoViST's scripts read (LoadJSON, ParseJSON);
//   - VIST story-in-sequence JSON (the SIS files of the VIST release:
//     "annotations" holding one entry per sentence with story_id,
//     photo_flickr_id, worker_arranged_photo_order and text; LoadVIST,
//     ParseVIST).
//
// A Suite is the input of a system comparison: image sequences, each with
// optional human references and one story per system (LoadSuite reads one
// JSON file, LoadSuiteDir a folder of per-system {id: story} files).
//
// Readers keep the order of the file, reject duplicate ids, and report
// every problem as a *ParseError naming the file, the story id and what is
// wrong.
package story
