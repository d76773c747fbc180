// Times an ONNX model in ONNX Runtime (CPU execution provider) through onnxruntime-node.
// usage: node ort_bench.js MODEL.onnx [ITERS=30] [THREADS=2] [INPUT.npy]
// Session: all graph optimizations, THREADS intra-op threads, 1 inter-op thread. Feeds INPUT.npy to the model's
// first input (float32 or int64 .npy), else deterministic values for every input. Warm-up runs (3 and 300 ms), then ITERS
// timed runs into output tensors allocated once. Prints one JSON line: {"model","ort_version","load_ms","median_ms","min_ms","iters","threads","rss_mb"}
// (rss_mb: the process's peak RSS, Node.js included).
// onnxruntime-node is found through NODE_PATH (see bench/README.md). With ORT_BENCH_PROFILE_DIR set, ORT's profiler
// also runs (its files go there) and the line adds run_median_ms / run_min_ms: ORT's own "model_run" times, without
// the Node binding's cost of handing the outputs to JavaScript (milliseconds for a few MB of output), which the
// wall-clock median includes.
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');

function readNpy(path) {  // little-endian float32 / int64 .npy, C order
  const buf = fs.readFileSync(path);
  const major = buf[6], headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12, header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const dims = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter(s => s.trim()).map(Number);
  if (/'fortran_order':\s*True/.test(header)) throw new Error(path + ': Fortran order');
  const raw = buf.buffer.slice(buf.byteOffset + start + headerLen, buf.byteOffset + buf.length);
  if (descr === '<f4') return new ort.Tensor('float32', new Float32Array(raw), dims);
  if (descr === '<i8') return new ort.Tensor('int64', new BigInt64Array(raw), dims);
  throw new Error(path + ': unsupported dtype ' + descr);
}

function syntheticInput(meta) {
  const dims = meta.shape.map(d => (typeof d === 'number' ? d : 1)), n = dims.reduce((a, b) => a * b, 1);
  if (meta.type === 'int64') return new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, i) => BigInt(i % 997)), dims);
  if (meta.type === 'int32') return new ort.Tensor('int32', Int32Array.from({ length: n }, (_, i) => i % 997), dims);
  return new ort.Tensor('float32', Float32Array.from({ length: n }, (_, i) => Math.sin(i)), dims);
}

// The process's peak resident set (VmHWM), in MiB; null where /proc is not there.
function peakRssMb() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch (e) {
    return null;
  }
}

// The profiler's model_run durations of the timed runs (the 3 warm-up runs dropped), in ms.
function profiledRuns(session, dir) {
  session.endProfiling();
  const files = fs.readdirSync(dir).filter(f => f.startsWith('ort_bench') && f.endsWith('.json'))
                  .map(f => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (!files.length) throw new Error('ORT wrote no profile in ' + dir);
  const runs = JSON.parse(fs.readFileSync(files[0], 'utf8')).filter(e => e.name === 'model_run')
                 .map(e => e.dur / 1000).slice(3).sort((a, b) => a - b);
  fs.unlinkSync(files[0]);
  return runs.length ? { run_median_ms: runs[runs.length >> 1], run_min_ms: runs[0] } : {};
}

async function main() {
  const [model, itersArg, threadsArg, inputNpy] = process.argv.slice(2);
  if (!model) throw new Error('usage: node ort_bench.js MODEL.onnx [ITERS] [THREADS] [INPUT.npy]');
  const iters = parseInt(itersArg || '30'), threads = parseInt(threadsArg || '2');
  const profileDir = process.env.ORT_BENCH_PROFILE_DIR;
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: threads, interOpNumThreads: 1,
    executionMode: 'sequential', enableCpuMemArena: true, enableMemPattern: true,
    ...(profileDir ? { enableProfiling: true, profileFilePrefix: path.join(profileDir, 'ort_bench') } : {}) });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const feeds = {};
  session.inputNames.forEach((name, i) => {
    feeds[name] = i === 0 && inputNpy ? readNpy(inputNpy) : syntheticInput(session.inputMetadata[i]);
  });
  // Warm-up: at least 3 runs and 300 ms (the first tens of runs through the Node binding are several times slower
  // than the rest: heap growth and page faults that are not ONNX Runtime's steady state).
  let last = null;
  const warmStart = process.hrtime.bigint();
  for (let i = 0; i < 3 || (i < 1000 && Number(process.hrtime.bigint() - warmStart) < 3e8); i++) {
    last = await session.run(feeds);
  }
  // Timed runs write into output tensors allocated once, as ge's do (an allocation per run of a few MB costs the
  // Node binding page faults and garbage collection, milliseconds that are not ONNX Runtime's).
  let fetches = {};
  for (const name of session.outputNames) {
    const t = last[name];
    fetches[name] = new ort.Tensor(t.type, t.data.constructor === Array ? t.data : new t.data.constructor(t.size), t.dims);
  }
  try {
    await session.run(feeds, fetches);
  } catch (e) {
    fetches = null;  // outputs the binding cannot take pre-allocated: allocate per run
  }
  const times = [];
  for (let i = 0; i < iters; i++) {
    const s = process.hrtime.bigint();
    if (fetches) {
      await session.run(feeds, fetches);
    } else {
      await session.run(feeds);
    }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  times.sort((a, b) => a - b);
  let version = null;
  try { version = require('onnxruntime-node/package.json').version; } catch (e) {}
  const out = { model, ort_version: version, load_ms: loadMs, median_ms: times[times.length >> 1], min_ms: times[0],
                iters, threads, rss_mb: peakRssMb() };
  if (profileDir) Object.assign(out, profiledRuns(session, profileDir));
  console.log(JSON.stringify(out));
}
main().catch(e => { console.error('ort_bench.js: ' + String(e && e.message || e)); process.exit(1); });
