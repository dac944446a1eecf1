package train

import "github.com/storyeval/storyeval/internal/e2efixtures"

// findOne and findDirWith locate fixture files by pattern
// (e2efixtures.FindOne, FindDirWith).
var findOne, findDirWith = e2efixtures.FindOne, e2efixtures.FindDirWith
