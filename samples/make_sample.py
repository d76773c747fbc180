#!/usr/bin/python3
"""Regenerates the bundled demo model: a small CNN (conv, batch norm, relu, pooling, residual add, linear,
softmax) with fixed random weights, exported by torch.onnx at opset 13, with its input and PyTorch's output.
usage: samples/make_sample.py  (writes samples/tiny_cnn.onnx, tiny_cnn.in.npy, tiny_cnn.ref.npy)"""
import os
import numpy as np
import torch

torch.manual_seed(7)


class TinyCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU())
        self.block = torch.nn.Sequential(torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
                                         torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.BatchNorm2d(16))
        self.pool = torch.nn.MaxPool2d(2)
        self.head = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(x + self.block(x))
        x = self.pool(x).mean(dim=(2, 3))
        return torch.softmax(self.head(x), dim=1)


here = os.path.dirname(os.path.abspath(__file__))
m = TinyCnn().eval()
for mod in m.modules():
    if isinstance(mod, torch.nn.BatchNorm2d):
        mod.running_mean.uniform_(-0.5, 0.5)
        mod.running_var.uniform_(0.5, 2.0)
x = torch.randn(1, 3, 32, 32)
torch.onnx.export(m, x, os.path.join(here, "tiny_cnn.onnx"), opset_version=13, input_names=["input"],
                  output_names=["output"])
with torch.no_grad():
    y = m(x)
np.save(os.path.join(here, "tiny_cnn.in.npy"), x.numpy())
np.save(os.path.join(here, "tiny_cnn.ref.npy"), y.numpy())
print("wrote tiny_cnn.onnx", y.shape)
