package groovist

import (
	"fmt"
	"strconv"
	"strings"
)

// AESOPImageIDs are the image ids of an AESOP story: {sid}_0 … {sid}_2
// (utils.get_image_ids, dataset AESOP).
func AESOPImageIDs(sid string) []string {
	return []string{sid + "_0", sid + "_1", sid + "_2"}
}

// VWPImageIDs are the image ids of a VWP story: the scene id (the part of
// the story id before ';') followed by _0 … _{n-1}, n from
// vwp_scene_id_2_nimgs.json.
func VWPImageIDs(sid string, scenes map[string]int) ([]string, error) {
	scene, _, _ := strings.Cut(sid, ";")
	n, ok := scenes[scene]
	if !ok {
		return nil, fmt.Errorf("scene %q of story %q is not in the scene table", scene, sid)
	}
	ids := make([]string, n)
	for k := range ids {
		ids[k] = scene + "_" + strconv.Itoa(k)
	}
	return ids, nil
}

// VISTImageIDs are the image ids of a VIST story from
// vist_sid_2_iids.json, as integers in canonical form (the reference
// calls int(x) on each).
func VISTImageIDs(sid string, table map[string][]string) ([]string, error) {
	raw, ok := table[sid]
	if !ok {
		return nil, fmt.Errorf("story %q is not in the story-to-images table", sid)
	}
	ids := make([]string, len(raw))
	for k, x := range raw {
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("story %q: image id %q is not an integer", sid, x)
		}
		ids[k] = strconv.FormatInt(n, 10)
	}
	return ids, nil
}
