#!/usr/bin/python3
"""samples/training_mlp's train_mlp (the MLP of make_mlp_training.py built and trained with ge's C++ session API)
against make_mlp_training.py's numpy reference: after N steps W1, B1, W2, B2 and V_W1 ... V_B2 within relative L2
1e-5 (no NaN or Inf), and each printed train loss within 1e-5 of the reference's loss of that step.

usage: check_sample.py --sample PATH_TO_train_mlp [--steps N] [--work DIR]
Without --work it uses a temporary directory, deleted on success and kept on failure."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_ge_train  # noqa: E402
import make_mlp_training  # noqa: E402

SAMPLE_TIMEOUT_S = 600
EPOCHS_PRINT = 10
# The sample has no step counter T: its first-step rule lives in a `beta_adj` variable instead.
COMPARED = make_mlp_training.PARAMS + make_mlp_training.VELOCITIES
EPOCH_LINE = re.compile(r"^epoch (\d+): train loss (\S+), eval loss (\S+)$", re.MULTILINE)


def run_sample(sample, work, steps, vars_dir):
    """Returns the sample's stdout, or None when it failed."""
    cmd = [sample, f"--data={work}", f"--steps={steps}", f"--epochs_print={EPOCHS_PRINT}",
           f"--save_variables={vars_dir}", f"--checkpoint={os.path.join(work, 'mlp.ckpt')}"]
    print("$ " + " ".join(cmd))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=SAMPLE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"train_mlp did not finish within {SAMPLE_TIMEOUT_S} s")
        return None
    except OSError as e:
        print(f"cannot run {sample}: {e}")
        return None
    print(r.stdout, end="")
    if r.returncode != 0:
        print(f"train_mlp failed with exit status {r.returncode}; stderr:\n{r.stderr}")
        return None
    return r.stdout


def compare_losses(stdout, expected_losses, tolerance):
    """The train loss printed at step N is the reference's loss of step N (before its update)."""
    printed = [(int(step), float(loss)) for step, loss, _ in EPOCH_LINE.findall(stdout)]
    if not printed:
        print("  loss  FAIL no 'epoch N: train loss L, eval loss L2' lines")
        return False
    errors = [abs(loss - expected_losses[step - 1]) / abs(expected_losses[step - 1]) for step, loss in printed]
    ok = all(np.isfinite(loss) for _, loss in printed) and max(errors) <= tolerance
    print(f"  loss  {'ok  ' if ok else 'FAIL'} {len(printed)} printed train losses, max relative error "
          f"{max(errors):.3e} (tolerance {tolerance:.0e})")
    return ok


def compare_variables(expected_dir, vars_dir, tolerance):
    all_ok = True
    for name in COMPARED:
        expected = np.load(os.path.join(expected_dir, name + ".npy"))
        ok, message = check_ge_train.compare_variable(name, os.path.join(vars_dir, name + ".npy"), expected,
                                                      tolerance)
        print(f"  {name:5} {'ok  ' if ok else 'FAIL'} {message}")
        all_ok = all_ok and ok
    return all_ok


def check(sample, work, steps):
    initial, final, min_abs_z = make_mlp_training.generate(work, steps)
    print(f"reference: {steps} steps, loss {initial:.6f} -> {final:.6f}, min |Z| {min_abs_z:.2e}")
    if min_abs_z < make_mlp_training.MIN_SAFE_ABS_Z:
        print("warning: a ReLU input came so close to 0 that float32 rounding may flip its mask and fail the check")
    vars_dir = os.path.join(work, "sample_vars")
    shutil.rmtree(vars_dir, ignore_errors=True)
    stdout = run_sample(sample, work, steps, vars_dir)
    if stdout is None:
        return False
    expected_dir = os.path.join(work, "expected")
    tolerance = check_ge_train.TOLERANCE
    print(f"train_mlp vs numpy reference (relative L2, tolerance {tolerance:.0e}):")
    losses_ok = compare_losses(stdout, np.load(os.path.join(expected_dir, "loss.npy")), tolerance)
    return compare_variables(expected_dir, vars_dir, tolerance) and losses_ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", required=True, help="the train_mlp binary")
    parser.add_argument("--steps", type=int, default=make_mlp_training.DEFAULT_STEPS)
    parser.add_argument("--work", help="working directory (default: a temporary one, kept on failure)")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")

    work = args.work or tempfile.mkdtemp(prefix="ge_train_sample_")
    os.makedirs(work, exist_ok=True)
    ok = check(args.sample, work, args.steps)
    return check_ge_train.finish(work, args.work, ok)


if __name__ == "__main__":
    sys.exit(main())
