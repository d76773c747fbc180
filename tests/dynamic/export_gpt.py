#!/usr/bin/python3
"""Exports a small GPT-style decoder with a dynamic sequence axis, and PyTorch's outputs to check ge against.

usage: export_gpt.py OUT_DIR     (Debian's python3-torch 1.13 and python3-onnx 1.12; /usr/bin/python3)

Writes OUT_DIR/gpt.onnx (opset 17): input `ids` int64 [1, seq] with `seq` a dynamic axis, output `logits` float32
[1, seq, 1000]. Decoder-only: token + learned position embeddings, 2 pre-LayerNorm blocks (d_model 128, 4 heads,
causal self-attention whose mask is built from the sequence length at run time, GELU MLP of width 512), a final
LayerNorm and an LM head tied to the token embedding. Random weights, fixed seed. Beside it, for each length L in
1, 7, 64, 256: ids_L.npy (the input) and ref_L.npy (PyTorch's logits). Exit 77 when torch or onnx is missing.
"""
import math
import os
import sys

LENGTHS = (1, 7, 64, 256)
VOCAB, MAX_POS, D_MODEL, HEADS, LAYERS, D_MLP = 1000, 512, 128, 4, 2, 512
OPSET = 17


def build_model(torch):
    nn = torch.nn

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
            self.proj = nn.Linear(D_MODEL, D_MODEL)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(x).split(c, dim=2)
            q = q.view(b, t, HEADS, c // HEADS).transpose(1, 2)
            k = k.view(b, t, HEADS, c // HEADS).transpose(1, 2)
            v = v.view(b, t, HEADS, c // HEADS).transpose(1, 2)
            scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(D_MODEL // HEADS))
            pos = torch.arange(t, device=x.device)
            future = pos.unsqueeze(0) > pos.unsqueeze(1)  # [t, t]: key position after query position
            scores = scores.masked_fill(future, float("-inf"))
            y = torch.softmax(scores, dim=-1) @ v
            return self.proj(y.transpose(1, 2).reshape(b, t, c))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(D_MODEL), nn.LayerNorm(D_MODEL)
            self.attn = Attention()
            self.mlp = nn.Sequential(nn.Linear(D_MODEL, D_MLP), nn.GELU(), nn.Linear(D_MLP, D_MODEL))

        def forward(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class Gpt(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(VOCAB, D_MODEL)
            self.pos = nn.Embedding(MAX_POS, D_MODEL)
            self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
            self.ln_f = nn.LayerNorm(D_MODEL)
            self.head = nn.Linear(D_MODEL, VOCAB, bias=False)
            self.head.weight = self.tok.weight  # tied

        def forward(self, ids):
            t = ids.shape[1]
            x = self.tok(ids) + self.pos(torch.arange(t, device=ids.device)).unsqueeze(0)
            for blk in self.blocks:
                x = blk(x)
            return self.head(self.ln_f(x))

    torch.manual_seed(0)
    model = Gpt().eval()
    with torch.no_grad():  # GPT-2's init scale: logits of a sensible magnitude
        for p in model.parameters():
            if p.dim() > 1:
                p.normal_(0.0, 0.02)
        for m in model.modules():
            if isinstance(m, nn.LayerNorm):  # not the identity, so the LayerNorm affine parts are exercised
                m.weight.uniform_(0.8, 1.2)
                m.bias.uniform_(-0.1, 0.1)
    return model


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    try:
        import numpy as np
        import onnx
        import torch
    except ImportError as e:
        print(f"{e}: the GPT export needs python3-torch, python3-onnx and python3-numpy (scripts/install_deps.sh)")
        return 77
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(2)
    model = build_model(torch)
    path = os.path.join(out, "gpt.onnx")
    example = torch.zeros(1, 7, dtype=torch.int64)
    torch.onnx.export(model, (example,), path, input_names=["ids"], output_names=["logits"],
                      dynamic_axes={"ids": {1: "seq"}, "logits": {1: "seq"}}, opset_version=OPSET,
                      do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for n in LENGTHS:
            ids = torch.randint(0, VOCAB, (1, n), generator=gen, dtype=torch.int64)
            ref = model(ids).numpy().astype(np.float32)
            np.save(os.path.join(out, f"ids_{n}.npy"), ids.numpy())
            np.save(os.path.join(out, f"ref_{n}.npy"), ref)
    params = sum(p.numel() for p in model.parameters())
    print(f"{path}: {params} parameters, opset {OPSET}, lengths {', '.join(map(str, LENGTHS))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
