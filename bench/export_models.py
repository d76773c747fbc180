#!/usr/bin/python3
"""Exports the benchmark models to ONNX (opset 13, random weights, seed 0 per model) with Debian's python3-torch and
python3-torchvision. For each NAME writes OUTDIR/NAME.onnx, NAME.in.npy (its input) and NAME.ref.npy (PyTorch's
output for that input); models whose three files already exist are skipped.
usage: export_models.py OUTDIR [name ...]   (no names: all)"""
import os
import sys

import numpy as np
import torch
import torchvision


class TinyBert(torch.nn.Module):
    """4-layer transformer encoder (d 256, 4 heads, ff 1024), vocab 1000, seq 128, learned positions, 2-class head."""

    def __init__(self, layers=4, d=256, heads=4, ff=1024, vocab=1000, seq=128):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(1, seq, d) * 0.02)
        layer = torch.nn.TransformerEncoderLayer(d, heads, ff, dropout=0.0, batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, layers)
        self.head = torch.nn.Linear(d, 2)

    def forward(self, ids):
        return self.head(self.enc(self.emb(ids) + self.pos)[:, 0])


def mlp():
    L = torch.nn.Linear
    return torch.nn.Sequential(L(784, 512), torch.nn.ReLU(), L(512, 512), torch.nn.ReLU(), L(512, 10))


image = lambda: torch.randn(1, 3, 224, 224)
MODELS = {  # name: (model constructor, input constructor)
    "resnet18": (torchvision.models.resnet18, image),
    "resnet50": (torchvision.models.resnet50, image),
    "mobilenet_v2": (torchvision.models.mobilenet_v2, image),
    "squeezenet": (torchvision.models.squeezenet1_1, image),
    "tinybert": (TinyBert, lambda: torch.randint(0, 1000, (1, 128))),
    "mlp": (mlp, lambda: torch.randn(64, 784)),
    "efficientnet_b0": (torchvision.models.efficientnet_b0, image),
    "densenet121": (torchvision.models.densenet121, image),
    "googlenet": (lambda: torchvision.models.googlenet(aux_logits=False, init_weights=False), image),
    "shufflenet_v2": (torchvision.models.shufflenet_v2_x1_0, image),
}


def export(name, out_dir):
    base = os.path.join(out_dir, name)
    if all(os.path.exists(base + ext) for ext in (".onnx", ".in.npy", ".ref.npy")):
        return
    torch.manual_seed(0)  # per model: the same weights and input whatever subset is exported
    make_model, make_input = MODELS[name]
    model, x = make_model().eval(), make_input()
    torch.onnx.export(model, x, base + ".onnx", opset_version=13, input_names=["input"], output_names=["output"],
                      do_constant_folding=True)
    with torch.no_grad():
        y = model(x)
    np.save(base + ".in.npy", x.numpy())
    np.save(base + ".ref.npy", y.numpy())  # written last: its presence marks a complete export
    print(f"exported {name} ({os.path.getsize(base + '.onnx') / 1e6:.1f} MB)", flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out_dir, names = sys.argv[1], sys.argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"unknown model(s) {' '.join(unknown)}; known: {' '.join(MODELS)}")
    os.makedirs(out_dir, exist_ok=True)
    for n in names:
        export(n, out_dir)
