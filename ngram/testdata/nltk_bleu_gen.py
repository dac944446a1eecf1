"""Regenerates nltk_bleu.json.gz: NLTK's sentence_bleu and corpus_bleu on the
captions corpus (captions_small.json.gz) and on random token corpora.

Run with Debian's python3-nltk (NLTK 3.8):
    /usr/bin/python3 nltk_bleu_gen.py > /dev/null
Every case records the value NLTK returns, or null where NLTK raises (the
exception's type is kept in "error").
"""
import gzip
import json
import os
import random
import sys
import warnings

import nltk
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = [
    [1.0],
    [0.5, 0.5],
    [1 / 3, 1 / 3, 1 / 3],
    [0.25, 0.25, 0.25, 0.25],
    [0.1, 0.2, 0.3, 0.4],
    [0.4, 0.3, 0.0, 0.3],
    [0.2, 0.2, 0.2, 0.2, 0.2],
]


def run(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(fn()), None
    except Exception as e:  # NLTK's own failures (method6's assert, min of no refs)
        return None, type(e).__name__


def cases_for(corpus, name, params, auto):
    out = []
    refs, hyps = corpus["refs"], corpus["hyps"]
    for w in WEIGHTS:
        for m in range(8):
            for a in auto:
                sf = SmoothingFunction(*params)
                method = getattr(sf, "method%d" % m)
                c = {"corpus": name, "weights": w, "method": m, "auto_reweigh": a,
                     "epsilon": params[0], "alpha": params[1], "k": params[2]}
                sent, errs = [], []
                for r, h in zip(refs, hyps):
                    v, e = run(lambda: sentence_bleu(r, h, tuple(w), method, a))
                    sent.append(v)
                    errs.append(e)
                c["sentence"], c["sentence_error"] = sent, errs
                c["corpus_value"], c["corpus_error"] = run(
                    lambda: corpus_bleu(refs, hyps, tuple(w), method, a))
                out.append(c)
    return out


def random_corpus(rng):
    vocab = ["a", "the", "cat", "dog", "sat", "on", "mat", "ran", "red", "big"][: rng.randint(3, 10)]
    n = rng.randint(1, 8)
    refs, hyps = [], []
    for _ in range(n):
        kind = rng.random()
        nref = rng.randint(1, 4)
        r = [[rng.choice(vocab) for _ in range(rng.randint(0, 14))] for _ in range(nref)]
        if kind < 0.1:
            h = []  # empty hypothesis
        elif kind < 0.2:
            h = ["zz%d" % rng.randint(0, 3) for _ in range(rng.randint(1, 6))]  # zero matches
        elif kind < 0.35:
            h = [rng.choice(vocab) for _ in range(rng.randint(1, 3))]  # shorter than 4
        elif kind < 0.5 and r[0]:
            h = list(r[0])  # a copy of a reference, perhaps edited
            if h and rng.random() < 0.5:
                h[rng.randrange(len(h))] = "zz"
        else:
            h = [rng.choice(vocab) for _ in range(rng.randint(1, 16))]
        refs.append(r)
        hyps.append(h)
    return {"refs": refs, "hyps": hyps}


def main():
    with gzip.open(os.path.join(HERE, "captions_small.json.gz"), "rt", encoding="utf-8") as f:
        cap = json.load(f)
    ids = list(cap["cands"])
    corpora = {}
    for mode in ("split", "lower_split"):
        low = (lambda s: s.lower()) if mode == "lower_split" else (lambda s: s)
        corpora["captions_" + mode] = {
            "ids": ids,
            "hyps": [low(cap["cands"][i]).split() for i in ids],
            "refs": [[low(r).split() for r in cap["refs"][i]] for i in ids],
        }
    rng = random.Random(23)
    for k in range(30):
        corpora["random%02d" % k] = random_corpus(rng)
    cases = []
    for name, c in corpora.items():
        cases += cases_for(c, name, (0.1, 5, 5), (False, True))
    for name in ("captions_split", "random03", "random07"):
        cases += cases_for(corpora[name], name, (0.01, 3, 2), (False,))
    out = {
        "generator": "nltk_bleu_gen.py",
        "nltk_version": nltk.__version__,
        "python": sys.version.split()[0],
        "module": nltk.__file__,
        "corpora": corpora,
        "cases": cases,
    }
    with gzip.open(os.path.join(HERE, "nltk_bleu.json.gz"), "wt", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
