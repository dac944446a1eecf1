"""PyTorch's side of the CUDA speed comparison of issue 22 (run by
scripts/cuda-check.sh on the GPU machine): the card's torch, float32 with
TF32 off, eager (no compile), transformers' default attention, random
weights, the shapes of the issue. Prints one JSON line per case and a
final 'detail:' line for the summary."""

import json
import time

import torch
from transformers import (AlbertConfig, AlbertModel, BertConfig, BertModel, CLIPVisionConfig,
                          CLIPVisionModel, ViTConfig, ViTModel)

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.manual_seed(0)
dev = "cuda"


def timed(fn, warmup=3, iters=10):
    """Mean seconds of fn over iters runs after warmup runs, synchronised."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters


def forward_case(name, model, inputs, items):
    model = model.to(dev).eval()
    with torch.no_grad():
        s = timed(lambda: model(**inputs))
    attn = getattr(model.config, "_attn_implementation", "?")
    return {"case": name, "ms": round(s * 1e3, 2), "items_per_s": round(items / s, 1), "attention": attn}


def ids(batch, seq, vocab):
    return {"input_ids": torch.randint(0, vocab, (batch, seq), device=dev),
            "attention_mask": torch.ones(batch, seq, dtype=torch.long, device=dev)}


results = []
results.append(forward_case("vit-b16 forward, 256 crops", ViTModel(ViTConfig(), add_pooling_layer=False),
                            {"pixel_values": torch.randn(256, 3, 224, 224, device=dev)}, 256))
results.append(forward_case("clip vit-b32 image tower, 256 crops", CLIPVisionModel(CLIPVisionConfig(patch_size=32)),
                            {"pixel_values": torch.randn(256, 3, 224, 224, device=dev)}, 256))
albert_large = AlbertConfig(hidden_size=1024, num_attention_heads=16, intermediate_size=4096, embedding_size=128,
                            num_hidden_layers=24, hidden_act="gelu_new")
results.append(forward_case("albert-large forward, 64 x 128", AlbertModel(albert_large), ids(64, 128, 30000), 64))
results.append(forward_case("bert-base forward, 32 x 512", BertModel(BertConfig()), ids(32, 512, 30522), 32))

# One training step: forward, a scalar loss, backward, Adam (torch's
# default, as the trainers).
bert = BertModel(BertConfig()).to(dev).train()
opt = torch.optim.Adam(bert.parameters(), lr=1e-5)
batch = ids(32, 512, 30522)


def train_step():
    opt.zero_grad(set_to_none=True)
    out = bert(**batch)
    loss = out.pooler_output.float().pow(2).mean()
    loss.backward()
    opt.step()


s = timed(train_step, warmup=2, iters=5)
results.append({"case": "bert-base training step, 32 x 512", "ms": round(s * 1e3, 2), "items_per_s": round(32 / s, 1)})
del bert, opt
torch.cuda.empty_cache()

for r in results:
    print(json.dumps(r))
print("detail: torch " + torch.__version__ + " " + torch.cuda.get_device_name(0) + ": " +
      "; ".join(f"{r['case']} {r['items_per_s']}/s" for r in results))
