"""Regenerates meteor_tasks.json.gz: Meteor 1.5's scores for every English
task parameter set (-t adq, rank, hter, util, li, tune), each without
normalization, with -lower, with -norm and with -norm -noPunct, per segment
and for the system;
and the AREL/MSR VIST evaluation protocol (-stdio -t hter, no -norm).

    python3 meteor_tasks_gen.py /path/to/meteor-1.5.jar

The jar is built from github.com/cmu-mtlab/meteor (commit 57a9ec5) with
Debian's JDK; its paraphrase table is not public, so every run uses the
8-entry meteor_paraphrase_tiny.gz (-a) and the Go test does the same.
Segments: captions_small and ptb_edge (raw text), synth_300_seed11, and 60
LLaVA VIST stories each scored against two other stories. Reference lists
are padded to the same length by repeating their last reference (the jar's
-r needs a fixed count; a repeated reference cannot change the best one).
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PARA = os.path.join(HERE, "meteor_paraphrase_tiny.gz")
TASKS = ["adq", "rank", "hter", "util", "li", "tune"]
NORMS = {"none": [], "lower": ["-lower"], "norm": ["-norm"], "nopunct": ["-norm", "-noPunct"]}


def load(name):
    with gzip.open(os.path.join(HERE, name), "rt", encoding="utf-8") as f:
        return json.load(f)


def one_line(s):
    return " ".join(s.split())


def segments():
    segs = []
    for name in ("captions_small.json.gz", "ptb_edge.json.gz", "synth_300_seed11.json.gz"):
        d = load(name)
        for k, v in d["cands"].items():
            segs.append({"id": name.split(".")[0] + "/" + k, "hyp": one_line(v),
                         "refs": [one_line(r) for r in d["refs"][k]]})
    vist = load("vist_llava_first500.json.gz")
    keys = list(vist)[:62]
    for i in range(60):
        segs.append({"id": "vist_llava/" + keys[i], "hyp": one_line(vist[keys[i]]),
                     "refs": [one_line(vist[keys[i + 1]]), one_line(vist[keys[i + 2]])]})
    return segs


def file_mode(jar, segs, task, norm, tmp):
    r = max(len(s["refs"]) for s in segs)
    test, ref = os.path.join(tmp, "test.txt"), os.path.join(tmp, "ref.txt")
    with open(test, "w", encoding="utf-8") as f:
        for s in segs:
            f.write(s["hyp"] + "\n")
    with open(ref, "w", encoding="utf-8") as f:
        for s in segs:
            refs = s["refs"] + [s["refs"][-1]] * (r - len(s["refs"]))
            for x in refs:
                f.write(x + "\n")
    cmd = ["java", "-Dfile.encoding=UTF-8", "-Xmx2G", "-jar", jar, test, ref, "-l", "en",
           "-t", task, "-r", str(r), "-a", PARA] + NORMS[norm]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    seg, system = [], None
    for line in out.splitlines():
        if line.startswith("Segment "):
            seg.append(float(line.split("\t")[1]))
        elif line.startswith("Final score:"):
            system = float(line.split(":", 1)[1])
    assert len(seg) == len(segs) and system is not None, out[-500:]
    args = ["TEST", "REF"] + cmd[7:cmd.index("-a") + 1] + ["meteor_paraphrase_tiny.gz"] + NORMS[norm]
    return {"task": task, "norm": norm, "args": args, "segments": seg, "system": system}


def vist_mode(jar, segs):
    """The AREL/MSR VistMeteor wrapper: one SCORE line per (hypothesis,
    reference) pair, the pair's score from EVAL of its statistics, the item's
    score the maximum over its references, the corpus score their mean.
    This build's EVAL reads one statistics field per line, so each pair is
    evaluated on its own line (the release jar's multi-field EVAL prints the
    same per-pair scores)."""
    cmd = ["java", "-Dfile.encoding=UTF-8", "-Xmx2G", "-jar", jar, "-", "-", "-stdio", "-t", "hter", "-a", PARA]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
    pairs, items = [], []
    for s in segs:
        hyp = s["hyp"].replace("|||", "").replace("  ", " ")
        scores = []
        for gt in s["refs"]:
            p.stdin.write(" ||| ".join(("SCORE", " ||| ".join([gt]), hyp)) + "\n")
            p.stdin.flush()
            stat = p.stdout.readline().strip()
            p.stdin.write("EVAL ||| " + stat + "\n")
            p.stdin.flush()
            scores.append(float(p.stdout.readline().strip()))
        pairs.append(scores)
        items.append(max(scores))
    p.stdin.close()
    p.wait()
    return {"args": cmd[5:-1] + ["meteor_paraphrase_tiny.gz"], "pairs": pairs, "items": items, "corpus": sum(items) / len(items)}


def main():
    jar = sys.argv[1]
    segs = segments()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for task in TASKS:
            for norm in NORMS:
                runs.append(file_mode(jar, segs, task, norm, tmp))
                print(task, norm, runs[-1]["system"], file=sys.stderr)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    out = {"generator": "meteor_tasks_gen.py", "meteor": "github.com/cmu-mtlab/meteor 57a9ec5",
           "java": java, "paraphrase": "meteor_paraphrase_tiny.gz", "segments": segs,
           "runs": runs, "vist": vist_mode(jar, segs)}
    with gzip.open(os.path.join(HERE, "meteor_tasks.json.gz"), "wt", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
