#!/usr/bin/python3
"""A neighbour process for `make bench BENCH_NEIGHBOUR=1`: another ML worker on the same CPU, as a second container
or a training job beside an inference server would be. PyTorch matrix products on THREADS threads (default 2) in a
loop until killed or SECONDS (default 3600) pass. usage: neighbour.py [THREADS] [SECONDS]"""
import sys
import time

import torch

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3600
torch.set_num_threads(threads)
a = torch.randn(384, 384)
end = time.time() + seconds
while time.time() < end:
    a @ a
