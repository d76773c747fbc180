#!/usr/bin/env python3
"""Bad input to `ge train` and `ge run --checkpoint` gives a non-zero exit and a message naming the problem, never
a crash or a hang: a model without training info, missing or mis-shaped inputs, missing, truncated and corrupted
checkpoints, an unknown flag.

usage: check_train_bad_inputs.py --ge PATH_TO_GE
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_mlp_training as mlp  # noqa: E402

failures = []


def check(ge, name, args, expect):
    try:
        r = subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: hung")
        return
    msg = (r.stderr + r.stdout).strip()
    if r.returncode <= 0:
        failures.append(f"{name}: exit code {r.returncode} (want a clean non-zero exit): {msg[-200:]}")
    elif expect not in msg:
        failures.append(f"{name}: message lacks '{expect}': {msg[-300:]}")
    else:
        print(f"ok   {name}: {msg.splitlines()[-1][:150]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", required=True)
    ge = ap.parse_args().ge
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
    with tempfile.TemporaryDirectory() as d:
        mlp.generate(d, steps=1)
        model, x, y = f"{d}/mlp_train.onnx", f"{d}/X.npy", f"{d}/Y.npy"
        train = [ge, "train", f"--model={model}", f"--input=X={x}", f"--input=Y={y}"][1:]
        subprocess.run([ge] + train + ["--steps=2", f"--save={d}/good.ckpt"], check=True, capture_output=True)
        good = open(f"{d}/good.ckpt", "rb").read()
        open(f"{d}/truncated.ckpt", "wb").write(good[: len(good) // 2])
        flipped = bytearray(good)
        flipped[len(flipped) // 2] ^= 0xFF
        open(f"{d}/flipped.ckpt", "wb").write(bytes(flipped))
        open(f"{d}/empty.ckpt", "wb").write(b"")

        check(ge, "no training info", ["train", f"--model={root}/samples/tiny_cnn.onnx"], "no training info")
        check(ge, "missing input", ["train", f"--model={model}", f"--input=X={x}"], "--input=Y=")
        check(ge, "mis-shaped input", ["train", f"--model={model}", f"--input=X={y}", f"--input=Y={y}"], "'X'")
        check(ge, "unknown input", train + [f"--input=Z={x}"], "'Z'")
        check(ge, "unknown flag", train + ["--stepz=3"], "stepz")
        check(ge, "negative steps", train + ["--steps=-1"], "steps")
        check(ge, "missing checkpoint", train + [f"--restore={d}/none.ckpt"], "none.ckpt")
        check(ge, "truncated checkpoint", train + [f"--restore={d}/truncated.ckpt"], "truncated")
        check(ge, "corrupted checkpoint", train + [f"--restore={d}/flipped.ckpt"], "checksum")
        check(ge, "empty checkpoint", train + [f"--restore={d}/empty.ckpt"], "checkpoint")
        check(ge, "run on a corrupted checkpoint",
              ["run", f"--model={model}", f"--checkpoint={d}/flipped.ckpt", f"--input=X={x}"], "checksum")
        for flag in ("--threads=5000", "--loop=3", "--profile"):  # would be ignored: refused, naming the flag
            check(ge, f"run --checkpoint with {flag}",
                  ["run", f"--model={model}", f"--checkpoint={d}/flipped.ckpt", f"--input=X={x}", flag],
                  flag.split("=")[0] + " does not apply to ge run --checkpoint")
    for f in failures:
        print("FAIL " + f)
    print("all bad inputs rejected cleanly" if not failures else f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
