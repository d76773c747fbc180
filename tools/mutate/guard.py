"""Applying a mutant so that the tree always comes back: the original bytes are saved (and synced) in a journal
under the build folder before the source is touched, restored in a `finally`, on SIGINT, SIGTERM and SIGHUP, and,
after a SIGKILL or a power cut, by the next run (or `mutate.py --restore`) before it does anything else.
"""
import json
import os
import signal
import subprocess
from contextlib import contextmanager


class Interrupted(Exception):
    pass


def _raise_interrupted(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


def install_signal_handlers():
    """SIGTERM and SIGHUP unwind like Ctrl-C, so the `finally` that restores the source runs."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_interrupted)


_CAUGHT = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def signals_held():
    """Signals wait while the journal and the source change, so an interruption never lands between the two."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _CAUGHT)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Journal:
    def __init__(self, root, build_dir):
        self.root = root
        self.dir = os.path.join(build_dir, "mutate")
        self.journal = os.path.join(self.dir, "journal.json")
        self.backup = os.path.join(self.dir, "original.bak")

    def recover(self):
        """Put back a source a previous run left mutated. Returns the path restored, or None."""
        if not os.path.exists(self.journal):
            return None
        with signals_held():
            with open(self.journal) as f:
                path = json.load(f)["path"]
            with open(self.backup, "rb") as f:
                original = f.read()
            _write_synced(os.path.join(self.root, path), original)
            os.remove(self.journal)
        return path

    def apply(self, path, mutated_text):
        """Writes the mutant; the journal names the file and holds its original bytes first."""
        os.makedirs(self.dir, exist_ok=True)
        full = os.path.join(self.root, path)
        with open(full, "rb") as f:
            original = f.read()
        with signals_held():
            _write_synced(self.backup, original)
            _write_synced(self.journal, json.dumps({"path": path}).encode())
            _write_synced(full, mutated_text.encode())

    def restore(self):
        self.recover()


def _write_synced(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    st = os.stat(path) if os.path.exists(path) else None
    if st is not None:
        os.chmod(tmp, st.st_mode & 0o7777)
    os.replace(tmp, path)


def run(cmd, cwd=None, timeout=None, env=None):
    """Runs cmd in its own process group; on timeout or interruption the whole group is killed.
    Returns (returncode or None on timeout, combined output)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, _ = proc.communicate()
        return None, out.decode(errors="replace")
    except BaseException:
        _kill_group(proc)
        proc.wait()
        raise


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
