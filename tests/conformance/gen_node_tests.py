#!/usr/bin/python3
"""Writes the ONNX backend node-test suite of Debian's python3-onnx (1.12) into OUTDIR/node/.
Its generator uses numpy aliases (np.float, np.int, ...) that numpy 1.24 removed; restore them first."""
import argparse
import sys

import numpy as np

for alias, real in (("float", float), ("int", int), ("bool", bool), ("object", object), ("complex", complex), ("str", str)):
    if not hasattr(np, alias):
        setattr(np, alias, real)

from onnx.backend.test.cmd_tools import generate_data  # noqa: E402

generate_data(argparse.Namespace(output=sys.argv[1], op_type=None, diff=False))
