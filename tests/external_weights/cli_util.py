"""What the external-weights checks share: running the ge command line and reading the outputs it wrote."""
import os
import subprocess


def run(cmd):
    """Runs cmd; exits with FAIL and its output when it fails. Returns its stdout."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}{p.stderr}")
    return p.stdout


def outputs(directory):
    """Every file `ge run --output_dir` wrote, by name, as bytes."""
    return {f: open(os.path.join(directory, f), "rb").read() for f in sorted(os.listdir(directory))}
