#!/usr/bin/env python3
"""Regenerate cmd/storyeval/demo/stories.json and ratings.csv (the `score -demo` set).

usage: make-demo.py VIST_GT_TEST.json LLAVA_STORIES.json OUT_DIR

Inputs: akskuchi/dHM-visual-storytelling data/stories/vist/gt_test.json (VIST test
reference stories, {story_id: text}) and the LLaVA stories (`llava_vc_p3`) of the same
repository ({story_id: text}). The 20 sequences are the first story ids, in numeric
order, none of whose three systems' stories equals that system's story of a sequence
taken before (VIST test albums repeat one image sequence under several story ids, and
LLaVA wrote one story per sequence): no system has the same story twice. Systems: llava (the story), llava-2sent (its first
two sentences), echo (its first sentence three times). Sentences end at '.', '!' or '?'
followed by white space. Ratings are synthetic, by a fixed rule (the n-th story counted
from 0): llava 4, 5, 4, 5, …; llava-2sent 3 on every third story (n % 3 == 0), else 2;
echo 2 on every fourth (n % 4 == 0), else 1.
"""
import json
import re
import sys


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def main(gt_path, llava_path, out):
    gt = json.load(open(gt_path))
    llava = json.load(open(llava_path))
    systems = ["llava", "llava-2sent", "echo"]
    ids, seqs, seen = [], {}, set()
    for sid in sorted(llava, key=int):
        if sid not in gt:
            continue
        s = sentences(llava[sid])
        stories = {"llava": llava[sid], "llava-2sent": " ".join(s[:2]), "echo": " ".join([s[0]] * 3)}
        if any((k, v) in seen for k, v in stories.items()):
            continue
        seen.update(stories.items())
        ids.append(sid)
        seqs[sid] = {"references": [gt[sid]], "stories": stories}
        if len(ids) == 20:
            break
    with open(f"{out}/stories.json", "w") as f:
        json.dump({"systems": systems, "sequences": seqs}, f, indent=1, ensure_ascii=False)
    with open(f"{out}/ratings.csv", "w") as f:
        f.write("id,system,rating\n")
        for i, sid in enumerate(ids):
            for sys_, rating in zip(systems, (4 + i % 2, 3 if i % 3 == 0 else 2, 2 if i % 4 == 0 else 1)):
                f.write(f"{sid},{sys_},{rating}\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
