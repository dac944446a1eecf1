"""Writes torch_zip_views.pt, torch_legacy_views.pt and torch_formats_expected.json.gz.

The two .pt files imitate what torch.save writes (zip format of PyTorch >= 1.6 and the
legacy format of PyTorch < 1.6) for tensors that the HF fixtures do not exercise:
strided views (a transpose, a slice with a storage offset, a stride-0 expand), two
tensors sharing one storage, legacy storage views, F16/BF16/F64/I64/I32/bool, a scalar,
an nn.Parameter, nested dicts and inert objects. PyTorch is not needed: the pickles
come from Python's own pickle module with stand-in classes registered under torch's
module names, so the byte stream has the same GLOBALs and persistent ids. The
expected values are the logical (row-major) contents, written independently of how
they are laid out in storage. Run: python3 gen_torch_formats.py (from this directory).
"""
import argparse, collections, gzip, io, json, pickle, struct, sys, types, zipfile

torch = types.ModuleType("torch")
utils = types.ModuleType("torch._utils")
sys.modules.update({"torch": torch, "torch._utils": utils})

FMT = {"FloatStorage": ("<f", 4, "F32"), "HalfStorage": ("<e", 2, "F16"),
       "DoubleStorage": ("<d", 8, "F64"), "LongStorage": ("<q", 8, "I64"),
       "IntStorage": ("<i", 4, "I32"), "BoolStorage": ("<?", 1, "BOOL"),
       "BFloat16Storage": (None, 2, "BF16")}
for name in FMT:
    cls = type(name, (), {"__module__": "torch"})
    cls.__qualname__ = name
    setattr(torch, name, cls)


def _rebuild_tensor_v2(*a):
    raise RuntimeError("never called")


def _rebuild_parameter(*a):
    raise RuntimeError("never called")


for f in (_rebuild_tensor_v2, _rebuild_parameter):
    f.__module__ = "torch._utils"
    setattr(utils, f.__name__, f)


class Storage:
    def __init__(self, key, kind, values, view=None):
        self.key, self.kind, self.values, self.view = key, kind, values, view

    def raw(self):
        fmt, size, _ = FMT[self.kind]
        if self.kind == "BFloat16Storage":
            return b"".join(struct.pack("<I", struct.unpack("<I", struct.pack("<f", v))[0])[2:] for v in self.values)
        return b"".join(struct.pack(fmt, v) for v in self.values)


class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def __reduce__(self):
        return (_rebuild_tensor_v2, (self.storage, self.offset, tuple(self.size), tuple(self.stride), False, collections.OrderedDict()))

    def logical(self):
        out = []

        def rec(d, off):
            if d == len(self.size):
                out.append(self.storage.values[off])
                return
            for i in range(self.size[d]):
                rec(d + 1, off + i * self.stride[d])
        rec(0, self.offset)
        return out


class Parameter:
    def __init__(self, t):
        self.t = t

    def __reduce__(self):
        return (_rebuild_parameter, (self.t, True, collections.OrderedDict()))




def contiguous_strides(size):
    s, acc = [], 1
    for d in reversed(size):
        s.insert(0, acc)
        acc *= d
    return s


def build(legacy):
    w = Storage("0", "FloatStorage", [float(i) - 2.5 for i in range(12)])
    h = Storage("1", "HalfStorage", [0.5, -1.25, 3.0, 65504.0, -0.0, 2.0 ** -24])
    b = Storage("2", "BFloat16Storage", [1.5, -2.0, 3.25, 1024.0])
    d = Storage("3", "DoubleStorage", [0.1, -1e-3, 123456789.0])
    l = Storage("4", "LongStorage", list(range(7)) + [-(2 ** 40)])
    i32 = Storage("5", "IntStorage", [-7, 0, 2 ** 31 - 1])
    bo = Storage("6", "BoolStorage", [True, False, True])
    s = Storage("7", "FloatStorage", [3.5])
    tensors = collections.OrderedDict()
    tensors["dense.weight"] = Tensor(w, 0, [3, 4], [4, 1])
    tensors["dense.weight_t"] = Tensor(w, 0, [4, 3], [1, 4])          # transpose: shares w
    tensors["dense.row_slice"] = Tensor(w, 5, [2, 3], [4, 1])         # offset, rows of length 3 inside 4
    tensors["dense.every_other"] = Tensor(w, 1, [5], [2])             # step 2
    tensors["dense.expand"] = Tensor(w, 3, [2, 3], [0, 1])            # stride 0
    tensors["half"] = Tensor(h, 0, [2, 3], [3, 1])
    tensors["bf16"] = Tensor(b, 0, [4], [1])
    tensors["double"] = Tensor(d, 0, [3], [1])
    tensors["position_ids"] = Tensor(l, 0, [1, 8], [8, 1])
    tensors["int32"] = Tensor(i32, 0, [3], [1])
    tensors["mask"] = Tensor(bo, 0, [3], [1])
    tensors["scalar"] = Tensor(s, 0, [], [])
    state = collections.OrderedDict(tensors)
    state["param"] = Parameter(Tensor(w, 8, [4], [1]))
    ns = argparse.Namespace(batch_size=32, lr=1e-5, name="run-1")
    ckpt = {"epoch": 3, "model": state, "valid_loss": 0.25, "opt": ns,
            "history": [1, 2.5, "x", None, True], "blob": b"\x00\xff"}
    if legacy:
        # A legacy storage view: 'half_view' reads elements 2..5 of storage h
        # through view key "1v", at offset 2 of the view.
        v = Storage("1", "HalfStorage", h.values, view=("1v", 2, 4))
        state["half_view"] = Tensor(v, 1, [2], [1])
    return ckpt, tensors, state


def expected(state):
    out = {}
    for name, t in state.items():
        if isinstance(t, Parameter):
            t = t.t
        st = t.storage
        vals = t.logical() if st.view is None else [st.values[st.view[1] + t.offset + k] for k in range(t.size[0])]
        out[name] = {"dtype": FMT[st.kind][2], "shape": t.size,
                     "values": [int(v) if isinstance(v, bool) else v for v in vals]}
    return out


class ZipPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", getattr(torch, obj.kind), obj.key, "cpu", len(obj.values))
        return None


class LegacyPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            view = None if obj.view is None else obj.view
            return ("storage", getattr(torch, obj.kind), obj.key, "cpu", len(obj.values), view)
        return None


def storages_of(state):
    out = {}
    for t in state.values():
        t = t.t if isinstance(t, Parameter) else t
        out[t.storage.key] = t.storage
    return out


def write_zip(path):
    ckpt, _, state = build(False)
    buf = io.BytesIO()
    ZipPickler(buf, protocol=2).dump(ckpt)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("torch_zip_views/data.pkl", buf.getvalue())
        for key, st in sorted(storages_of(state).items()):
            z.writestr("torch_zip_views/data/" + key, st.raw())
        z.writestr("torch_zip_views/version", "3\n")
    return expected(state)


def write_legacy(path):
    ckpt, _, state = build(True)
    f = io.BytesIO()
    pickle.dump(0x1950a86a20f9469cfc6c, f, protocol=2)
    pickle.dump(1001, f, protocol=2)
    pickle.dump({"protocol_version": 1001, "little_endian": True,
                 "type_sizes": {"short": 2, "int": 4, "long": 4}}, f, protocol=2)
    LegacyPickler(f, protocol=2).dump(ckpt)
    roots = storages_of(state)
    keys = sorted(roots)
    pickle.dump(keys, f, protocol=2)
    for k in keys:
        st = roots[k]
        f.write(struct.pack("<q", len(st.values)))
        f.write(st.raw())
    open(path, "wb").write(f.getvalue())
    return expected(state)


if __name__ == "__main__":
    exp = {"zip": write_zip("torch_zip_views.pt"), "legacy": write_legacy("torch_legacy_views.pt"),
           "values": {"epoch": 3, "valid_loss": 0.25, "opt.batch_size": 32, "opt.lr": 1e-5, "opt.name": "run-1"}}
    with gzip.open("torch_formats_expected.json.gz", "wt") as g:
        json.dump(exp, g, indent=1)
