"""Writes rovist_checkpoints_expected.json.gz from the two RoViST checkpoints here.

An independent reading of the torch.save zip archives with Python's own unpickler
(stand-ins for the torch globals, nothing of torch imported): for every tensor its
dtype, shape, first and last element and the float64 sum of its elements in
row-major order; and the non-tensor entries. Run: python3 gen_rovist_expected.py
"""
import collections, gzip, json, pickle, struct, zipfile

class Namespace:
    pass


FMT = {"FloatStorage": ("f", 4, "F32"), "LongStorage": ("q", 8, "I64")}


class Unpickler(pickle.Unpickler):
    def __init__(self, f, z, prefix):
        super().__init__(f)
        self.z, self.prefix = z, prefix

    def find_class(self, module, name):
        if module == "torch" and name in FMT:
            return name
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return self.rebuild
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("argparse", "Namespace"):
            return Namespace
        raise pickle.UnpicklingError(f"{module}.{name}")

    def persistent_load(self, pid):
        _, kind, key, _, numel = pid
        fmt, size, dt = FMT[kind]
        raw = self.z.read(f"{self.prefix}/data/{key}")
        return dt, struct.unpack(f"<{numel}{fmt}", raw[: numel * size])

    def rebuild(self, storage, offset, size, stride, *rest):
        dt, vals = storage
        out = []

        def rec(d, off):
            if d == len(size):
                out.append(vals[off])
                return
            for i in range(size[d]):
                rec(d + 1, off + i * stride[d])
        rec(0, offset)
        s = 0.0
        for v in out:
            s += float(v)
        return {"dtype": dt, "shape": list(size), "first": out[0], "last": out[-1], "sum": s}


def read(path):
    z = zipfile.ZipFile(path)
    prefix = path.rsplit(".", 1)[0]
    with z.open(prefix + "/data.pkl") as f:
        obj = Unpickler(f, z, prefix).load()
    values = {k: v for k, v in obj.items() if k != "model" and k != "opt"}
    if "opt" in obj:
        values["opt"] = dict(vars(obj["opt"]))
    return {"tensors": obj["model"], "values": values}


if __name__ == "__main__":
    out = {p: read(p) for p in ["sop_model_epoch4.pth.tar", "r2p_model_epoch2.pth.tar"]}
    with gzip.open("rovist_checkpoints_expected.json.gz", "wt") as g:
        json.dump(out, g, indent=1)
