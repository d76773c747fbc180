#!/usr/bin/python3
"""Runs a model with ge from Python as an ONNX Runtime user would: InferenceSession, get_inputs, run(None, feed).

usage: infer.py MODEL(.onnx|.om) INPUT.npy [OUTPUT.npy]
With `import ge` from an installed package (cmake --install) or PYTHONPATH=build/python."""
import sys

import numpy as np

import ge


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sess = ge.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    (y,) = sess.run(None, {name: np.load(sys.argv[2])})[:1]
    print(f"{sess.get_outputs()[0].name}: {y.dtype}{list(y.shape)} argmax={int(np.argmax(y))} "
          f"(ge from {ge.__file__}, runtime {sess.get_modelmeta().custom_metadata_map['ge.runtime']})")
    if len(sys.argv) > 3:
        np.save(sys.argv[3], y)


if __name__ == "__main__":
    main()
