#!/usr/bin/python3
"""Exports the model-test zoo with torch.onnx at opsets 13-17 (random weights, fixed seed) and writes, beside each
NAME.onnx, its input NAME.in.npy and PyTorch's output NAME.ref.npy.
usage: export_models.py OUTDIR [name ...]"""
import os
import sys

import numpy as np
import torch
import torchvision

torch.manual_seed(0)
out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
wanted = set(sys.argv[2:])


class Encoder(torch.nn.Module):
    """BERT-style encoder: embedding, positional parameter, 2 transformer layers (GELU), pooled head."""

    def __init__(self, d=64, heads=4, vocab=500, seq=32):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(1, seq, d) * 0.02)
        layer = torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, activation="gelu")
        self.enc = torch.nn.TransformerEncoder(layer, 2)
        self.head = torch.nn.Linear(d, 3)

    def forward(self, ids):
        return self.head(self.enc(self.emb(ids) + self.pos)[:, 0])


class LstmTagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(16, 32, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = torch.nn.GRU(64, 24, batch_first=True)
        self.out = torch.nn.Linear(24, 5)

    def forward(self, x):
        y, _ = self.lstm(x)
        y, _ = self.gru(y)
        return self.out(y)


class UNet(torch.nn.Module):
    def __init__(self, c=8):
        super().__init__()

        def block(i, o):
            return torch.nn.Sequential(torch.nn.Conv2d(i, o, 3, padding=1), torch.nn.BatchNorm2d(o), torch.nn.ReLU(),
                                       torch.nn.Conv2d(o, o, 3, padding=1), torch.nn.BatchNorm2d(o), torch.nn.ReLU())

        self.d1, self.d2, self.mid = block(3, c), block(c, 2 * c), block(2 * c, 4 * c)
        self.up2 = torch.nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
        self.u2 = block(4 * c, 2 * c)
        self.up1 = torch.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.u1 = block(3 * c, c)
        self.final = torch.nn.Conv2d(c, 2, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(torch.nn.functional.max_pool2d(a, 2))
        m = self.mid(torch.nn.functional.max_pool2d(b, 2))
        y = self.u2(torch.cat([self.up2(m), b], 1))
        y = self.u1(torch.cat([self.up1(y), a], 1))
        return torch.sigmoid(self.final(y))


def image(n=1, s=224):
    return torch.randn(n, 3, s, s)


# name: (constructor, input, opset)
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(), image(), 13),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), image(), 14),
    "squeezenet1_0": (lambda: torchvision.models.squeezenet1_0(), image(), 16),
    "shufflenet_v2_x0_5": (lambda: torchvision.models.shufflenet_v2_x0_5(), image(), 17),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(), image(), 15),
    "regnet_y_400mf": (lambda: torchvision.models.regnet_y_400mf(), image(), 13),
    "encoder_op14": (lambda: Encoder(), torch.randint(0, 500, (1, 32)), 14),
    "encoder_op17": (lambda: Encoder(), torch.randint(0, 500, (1, 32)), 17),
    "lstm_gru": (lambda: LstmTagger(), torch.randn(2, 10, 16), 13),
    "unet": (lambda: UNet(), image(1, 64), 16),
    # Parallel branches (inception modules): compiled onto several streams.
    "inception_v3": (lambda: torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=True),
                     image(1, 299), 15),
}

for name, (ctor, x, opset) in MODELS.items():
    if wanted and name not in wanted:
        continue
    model = ctor().eval()
    for mod in model.modules():  # non-trivial batch-norm statistics, so folding errors would show
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.2, 0.2)
            mod.running_var.uniform_(0.5, 1.5)
    path = os.path.join(out_dir, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["input"], output_names=["output"])
    with torch.no_grad():
        y = model(x)
    np.save(os.path.join(out_dir, name + ".in.npy"), x.numpy())
    np.save(os.path.join(out_dir, name + ".ref.npy"), y.numpy())
    print(f"exported {name} (opset {opset})", flush=True)
