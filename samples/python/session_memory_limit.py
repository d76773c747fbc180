"""More graphs than the session's memory limit holds: ge's model executor evicts the least recently used idle graph
to make room and reloads it when it runs again (GE's ModelExecutor, ge.exec.sessionMemoryLimit). Prints each
graph's loads and evictions and checks every output against numpy.

usage: session_memory_limit.py [GRAPHS] [N]"""
import sys

import numpy as np

import ge


def scaled_graph(k, n):
    """y = relu(x * k + k) over n floats."""
    g = ge.Graph(f"scaled_{k}")
    x = g.input("x", np.float32, [n])
    c = g.constant("k", np.array(k, np.float32))
    g.add_output(g.op("Relu", [g.op("Add", [g.op("Mul", [x, c]), c])]))
    return g


def main():
    graphs = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
    probe = ge.Session()
    probe.add_graph(1, scaled_graph(1.0, n))
    probe.compile_graph(1)
    per_graph = probe.get_compiled_graph_summary(1)["feature_memory_size"]
    limit = 2 * per_graph + per_graph // 2  # room for two graphs at a time
    sess = ge.Session({"ge.exec.sessionMemoryLimit": str(limit)})
    print(f"{graphs} graphs of {per_graph} feature-map bytes each, session limit {limit} bytes")
    x = (np.arange(n, dtype=np.float32) % 7) - 3
    for gid in range(1, graphs + 1):
        sess.add_graph(gid, scaled_graph(float(gid), n))
    for _ in range(3):
        for gid in range(1, graphs + 1):
            (y,) = sess.run_graph(gid, [x])
            want = np.maximum(0, x * gid + gid).astype(np.float32)
            if not np.array_equal(y, want):
                sys.exit(f"graph {gid}: output differs from numpy")
    total_evictions = 0
    for gid in range(1, graphs + 1):
        st = sess.get_graph_load_state(gid)
        total_evictions += st["evictions"]
        print(f"graph {gid}: loaded={st['loaded']} loads={st['loads']} evictions={st['evictions']} "
              f"holds {st['feature_memory_bytes']} bytes")
    if graphs > 2 and total_evictions == 0:
        sys.exit("expected evictions under the limit")
    print(f"all {3 * graphs} runs equal numpy; {total_evictions} evictions")


if __name__ == "__main__":
    main()
