// ge run on the public API alone (include/ge; `ge` links libge.so only): an .om through ge::OfflineModel, whose
// loader picks the runtime as it does for every library user; ONNX or IR text uncompiled on the reference
// interpreter (ge::LoadOnInterpreter). Binds inputs, runs --warmup + --loop times, reports.
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "base/npy.h"
#include "base/shape.h"
#include "commands.h"
#include "default_input.h"
#include "flags.h"
#include "ge/compile.h"
#include "ge/model.h"
#include "ge/options.h"
#include "json_text.h"
#include "tensor_text.h"

namespace ge::cli {

namespace {

double NowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Resident set size now (not the peak), from /proc/self/statm; 0 when unreadable.
double CurrentRssMb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long long pages = 0, resident = 0;
  const int n = std::fscanf(f, "%lld %lld", &pages, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// The C heap as glibc's malloc sees it (all arenas), in MiB, as JSON fields: bytes in use, free bytes it keeps
// (sbrk'ed or arena memory not returned to the OS), and bytes in its own mmap'ed chunks.
std::string HeapJson() {
  const struct mallinfo2 mi = mallinfo2();
  auto mb = [](size_t b) { return std::to_string(static_cast<double>(b) / (1 << 20)); };
  return "\"heap_in_use_mb\":" + mb(mi.uordblks) + ",\"heap_free_mb\":" + mb(mi.fordblks) +
         ",\"heap_mmapped_mb\":" + mb(mi.hblkhd);
}

// A loaded model as ge run drives it: static models run the buffer form of Execute into output tensors allocated
// once (zero-copy, as a library user would), dynamic ones the tensor form (outputs at their run-time shapes).
class Runner {
 public:
  static StatusOr<Runner> Open(const std::string& path, const OfflineModelOptions& options) {
    Runner r;
    if (IsOm(path)) {
      GE_ASSIGN_OR_RETURN(r.model_, OfflineModel::LoadFromFile(path, options));
    } else {
      struct stat st;
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        return DataLoss(path + ": the file is empty");
      }
      if (options.pipeline_stages > 0) {
        return InvalidArgument("--pipeline_stages runs an IR .om on runtime v2; compile " + path +
                               " with `ge compile --runtime=v2` first");
      }
      GE_ASSIGN_OR_RETURN(r.model_, LoadOnInterpreter(CompileSource::FromFile(path), options));
    }
    if (!r.model_->dynamic()) {
      for (const ModelTensorDesc& d : r.model_->outputs()) {
        GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.dtype, Dims(d.dims.begin(), d.dims.end())));
        r.out_buffers_.push_back(OutputBuffer{t.raw_data(), t.nbytes()});
        r.out_tensors_.push_back(std::move(t));
      }
    }
    return r;
  }
  OfflineModel& model() { return *model_; }
  const OfflineModel& model() const { return *model_; }
  const char* engine() const { return model_->runtime().c_str(); }
  const std::vector<ModelTensorDesc>& inputs() const { return model_->inputs(); }
  const std::vector<ModelTensorDesc>& outputs() const { return model_->outputs(); }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
    if (model_->dynamic()) return model_->Execute(inputs, outputs);
    in_buffers_.clear();
    for (const Tensor& t : inputs) in_buffers_.push_back(InputBuffer{t.raw_data(), t.nbytes()});
    GE_RETURN_IF_ERROR(model_->Execute(in_buffers_, out_buffers_));
    *outputs = out_tensors_;
    return Status::Ok();
  }

 private:
  static bool IsOm(const std::string& path) {
    char head[16] = {};
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return false;
    const size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    return DetectModelFormat(head, n) == ModelFormat::kOm;
  }
  std::unique_ptr<OfflineModel> model_;
  std::vector<Tensor> out_tensors_;  // static models: written in place every run
  std::vector<InputBuffer> in_buffers_;
  std::vector<OutputBuffer> out_buffers_;
};

std::string DescribeIo(const ModelTensorDesc& d) {
  std::string dims = "[";
  for (size_t i = 0; i < d.dims.size(); ++i) {
    if (i) dims += ",";
    const bool named = i < d.dim_names.size() && !d.dim_names[i].empty();
    dims += d.dims[i] >= 0 ? std::to_string(d.dims[i]) : named ? d.dim_names[i] : "?";
  }
  return std::string(DataTypeName(d.dtype)) + dims + "]";
}

// InvalidArgument naming the input and what differs unless |t| has its dtype, rank and known dims.
Status CheckInput(const Tensor& t, const ModelTensorDesc& d) {
  if (t.dtype() != d.dtype) {
    return InvalidArgument("input '" + d.name + "' has dtype " + DataTypeName(t.dtype()) + "; the model wants " +
                           DescribeIo(d));
  }
  bool ok = static_cast<size_t>(t.rank()) == d.dims.size();
  for (size_t k = 0; ok && k < d.dims.size(); ++k) ok = d.dims[k] < 0 || d.dims[k] == t.dims()[k];
  if (ok) return Status::Ok();
  return InvalidArgument("input '" + d.name + "' has shape " + DimsToString(t.dims()) + "; the model wants " +
                         DescribeIo(d));
}

// --vary=NAME:AXIS:LO~HI: that input is fed at pseudo-random sizes along AXIS (fixed seed), to exercise a dynamic
// model under shape churn.
struct Vary {
  size_t input = 0;
  int axis = 0;
  int64_t lo = 0, hi = 0;
};

StatusOr<Vary> ParseVary(const std::string& spec, const std::vector<ModelTensorDesc>& inputs,
                         const std::vector<Tensor>& values) {
  const size_t c1 = spec.find(':');
  const size_t c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
  const size_t tilde = c2 == std::string::npos ? c2 : spec.find('~', c2 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos || tilde == std::string::npos) {
    return InvalidArgument("--vary wants NAME:AXIS:LO~HI, got '" + spec + "'");
  }
  const std::string name = spec.substr(0, c1);
  Vary v;
  bool found = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == name) {
      v.input = i;
      found = true;
    }
  }
  if (!found) return InvalidArgument("--vary names '" + name + "', which is not an input of the model");
  auto num = [&](const std::string& text, int64_t* out) {
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || x < 0 || x > (int64_t{1} << 31)) return false;
    *out = x;
    return true;
  };
  int64_t axis = 0;
  if (!num(spec.substr(c1 + 1, c2 - c1 - 1), &axis) || axis >= values[v.input].rank()) {
    return InvalidArgument("--vary '" + spec + "': AXIS must be a dim of input '" + name + "' (rank " +
                           std::to_string(values[v.input].rank()) + ")");
  }
  if (!num(spec.substr(c2 + 1, tilde - c2 - 1), &v.lo) || !num(spec.substr(tilde + 1), &v.hi) || v.lo > v.hi) {
    return InvalidArgument("--vary '" + spec + "': LO~HI must be sizes with LO <= HI");
  }
  v.axis = static_cast<int>(axis);
  return v;
}

// The input for one run under --vary: the bound input's dtype and dims with the varied axis at a size drawn from
// |rng|, deterministic values.
StatusOr<Tensor> VariedInput(const Vary& v, const Tensor& base, std::mt19937_64& rng) {
  Dims dims = base.dims();
  dims[v.axis] = v.lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(v.hi - v.lo + 1));
  return MakeDefaultInput(base.dtype(), dims, 1234);
}

// The process's peak resident set in MiB: VmHWM, which starts afresh at exec (getrusage's ru_maxrss carries the
// parent's peak over exec: ge run started from a Python process holding 1 GB reported 1 GB).
double PeakRssMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

// Binds --input flags to graph inputs: NAME=FILE or positional FILE in graph-input order.
StatusOr<std::vector<Tensor>> BindInputs(const Flags& flags, const std::vector<ModelTensorDesc>& graph_inputs) {
  std::map<std::string, std::string> by_name;
  std::vector<std::string> in_order;
  for (const std::string& spec : flags.GetAll("input")) {
    size_t eq = spec.find('=');
    if (eq != std::string::npos) {
      by_name[spec.substr(0, eq)] = spec.substr(eq + 1);
    } else {
      in_order.push_back(spec);
    }
  }
  for (auto& [name, file] : by_name) {
    bool found =
        std::any_of(graph_inputs.begin(), graph_inputs.end(), [&](const ModelTensorDesc& d) { return d.name == name; });
    if (!found) return InvalidArgument("--input names '" + name + "', which is not an input of the model");
  }
  if (in_order.size() > graph_inputs.size()) {
    return InvalidArgument("got " + std::to_string(in_order.size()) + " --input files but the model has " +
                           std::to_string(graph_inputs.size()) + " inputs");
  }
  std::vector<Tensor> values;
  size_t next_positional = 0;
  for (size_t i = 0; i < graph_inputs.size(); ++i) {
    const ModelTensorDesc& in = graph_inputs[i];
    std::string file;
    if (by_name.count(in.name)) {
      file = by_name[in.name];
    } else if (next_positional < in_order.size()) {
      file = in_order[next_positional++];
    }
    if (!file.empty()) {
      GE_ASSIGN_OR_RETURN(Tensor t, ReadNpy(file));
      values.push_back(std::move(t));
    } else if (!flags.GetAll("input").empty()) {
      return InvalidArgument("no --input given for model input '" + in.name + "' (" + DescribeIo(in) + ")");
    } else {
      GE_ASSIGN_OR_RETURN(Tensor t, MakeDefaultInput(in.dtype, in.dims, 1234 + i));
      values.push_back(std::move(t));
    }
  }
  return values;
}

// Runtime v2's memory figures (`--json`'s "memory"), as JSON members; "" for the other runtimes.
std::string MemoryJson(const OfflineModel& model) {
  ModelMemoryStats m;
  if (!model.memory_stats(&m)) return "";
  auto mb = [](size_t b) { return std::to_string(static_cast<double>(b) / (1 << 20)); };
  return "\"allocator_cap_mb\":" + mb(m.allocator_cap) + ",\"allocator_cached_mb\":" + mb(m.allocator_cached) +
         ",\"allocator_in_use_mb\":" + mb(m.allocator_in_use) +
         ",\"allocator_peak_total_mb\":" + mb(m.allocator_peak_total) + ",\"allocator_front_mb\":" + mb(m.front_held) +
         ",\"arena_mb\":" + mb(m.arena) + ",\"arena_touched_mb\":" + mb(m.arena_touched) +
         ",\"arena_in_use_mb\":" + mb(m.arena_in_use) + ",\"arena_peak_in_use_mb\":" + mb(m.arena_peak_in_use) +
         ",\"arena_peak_mb\":" + mb(m.arena_peak) + ",\"arena_segments\":" + std::to_string(m.arena_segments) +
         ",\"cached_kernels\":" + std::to_string(m.cached_kernels);
}

int Fail(const Status& s) {
  std::fprintf(stderr, "ge run: %s\n", s.ToString().c_str());
  return 1;
}

}  // namespace

// `--profile`: kernel time per run on stderr, by op and implementation, then the `slowest` slowest nodes.
void PrintProfile(const std::vector<KernelProfile>& profile, size_t slowest) {
  if (profile.empty()) {
    std::fprintf(stderr, "ge run: --profile: no kernel timings (the interpreter and the pipeline do not profile)\n");
    return;
  }
  double total = 0;
  std::map<std::string, std::pair<double, int>> by_kind;
  for (const KernelProfile& p : profile) {
    const double ms = p.runs ? p.seconds * 1e3 / static_cast<double>(p.runs) : 0;
    total += ms;
    auto& k = by_kind[p.op_type + " " + p.impl];
    k.first += ms;
    ++k.second;
  }
  std::vector<std::pair<double, std::string>> kinds;
  for (const auto& [name, v] : by_kind) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%d nodes)", v.second);
    kinds.push_back({v.first, name + buf});
  }
  std::sort(kinds.rbegin(), kinds.rend());
  std::fprintf(stderr, "kernel time per run: %.3f ms over %zu kernels\n", total, profile.size());
  for (const auto& [ms, name] : kinds) std::fprintf(stderr, "  %9.3f ms %5.1f%%  %s\n", ms, 100 * ms / total, name.c_str());
  std::vector<const KernelProfile*> nodes;
  for (const KernelProfile& p : profile) nodes.push_back(&p);
  std::sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->seconds > b->seconds; });
  std::fprintf(stderr, "slowest nodes:\n");
  for (size_t i = 0; i < nodes.size() && i < slowest; ++i) {
    const KernelProfile& p = *nodes[i];
    std::fprintf(stderr, "  %9.3f ms  %s %s %s\n", p.runs ? p.seconds * 1e3 / static_cast<double>(p.runs) : 0,
                 p.node.c_str(), p.op_type.c_str(), p.impl.c_str());
  }
}

const CommandSpec& RunCommandSpec() {
  static const CommandSpec spec = {
      "run",
      "--model=M.om|M.onnx",
      "run a model on .npy inputs (or generated ones), time it and write its outputs",
      {{"model", "M.om|M.onnx", "the model: a compiled or IR .om, or ONNX (the reference interpreter)"},
       {"input", "FILE.npy|NAME=FILE.npy", "an input, in order or by name (repeatable); none: pseudo-random inputs"},
       {"output_dir", "DIR", "write OUTPUT_NAME.npy per output"},
       {"loop", "N", "timed runs (default 1)"},
       {"warmup", "N", "untimed runs before them (default 0)"},
       {"threads", "N", "intra-op threads (default: the CPUs this process may use)"},
       {"contention", "adaptive|full|one",
        "others on the CPU: one thread while they preempt us (adaptive), never, always"},
       {"seed", "N", "seed of the generated inputs (default 0)"},
       {"json", "", "print one line of JSON: load_ms, median_ms, min_ms, iters, threads, memory, ..."},
       {"profile", "", "kernel time per run by op and implementation, then the slowest nodes (stderr)"},
       {"profile_nodes", "N", "slowest nodes --profile lists (default 15)"},
       {"trace", "FILE.json", "write a Chrome / Perfetto trace: load phases, one slice per kernel run per stream/worker"},
       {"vary", "NAME:AXIS:LO~HI", "feed input NAME at pseudo-random sizes LO..HI along AXIS (shape churn)"},
       {"pipeline_stages", "N", "IR .om: the --loop requests stream through N partitioned stages"},
       {"interpreter", "", "IR .om: run the reference interpreter instead of runtime v2"},
       {"option", "KEY=VALUE", "a ge.* option runtime v2 reads at load (repeatable; `ge options` lists them)"},
       {"checkpoint", "CKPT", "M.onnx on trained variables in a session (with --input and --output_dir only)"}}};
  return spec;
}

int RunCommand(int argc, char** argv) {
  auto flags_or = ParseFlags(argc, argv, 2, RunCommandSpec());
  if (!flags_or.ok()) return Fail(flags_or.status());
  const Flags& flags = *flags_or;
  if (flags.Has("checkpoint")) {
    // Inference on trained variables reads --model, --input and --output_dir only: a timing or runtime flag given
    // with it would be silently ignored, so it is refused instead.
    for (const char* f : {"loop", "warmup", "threads", "json", "seed", "profile", "profile_nodes", "vary", "option",
                          "interpreter", "pipeline_stages", "contention", "trace"}) {
      if (flags.Has(f)) return Fail(InvalidArgument(std::string("--") + f + " does not apply to ge run --checkpoint"));
    }
    return RunWithCheckpointCommand(flags);
  }
  std::string model_path = flags.Get("model");
  if (model_path.empty() && !flags.positional.empty()) model_path = flags.positional[0];
  if (model_path.empty()) return Fail(InvalidArgument("--model=PATH is required"));
  auto loop = flags.GetInt("loop", 1, 1, 1000000);
  auto warmup = flags.GetInt("warmup", 0, 0, 1000000);
  // 0 (the default): the CPUs this process may use, its affinity mask capped by its cgroup's CPU quota.
  auto threads = flags.GetInt("threads", 0, 0, 1024);
  auto seed = flags.GetInt("seed", 0, 0, INT64_MAX);
  auto pipeline_stages = flags.GetInt("pipeline_stages", 0, 0, 1024);
  auto profile_nodes = flags.GetInt("profile_nodes", 15, 0, INT64_MAX);
  for (auto* s : {&loop, &warmup, &threads, &seed, &pipeline_stages, &profile_nodes})
    if (!s->ok()) return Fail(s->status());

  if (*threads == 0) *threads = UsableCpuCount();
  const std::string contention = flags.Has("contention") ? flags.Get("contention") : "adaptive";
  OfflineModelOptions open;
  if (contention == "adaptive") {
    open.thread_contention = ThreadContention::kAdaptive;
  } else if (contention == "full") {
    open.thread_contention = ThreadContention::kFullThreads;
  } else if (contention == "one") {
    open.thread_contention = ThreadContention::kOneThread;
  } else {
    return Fail(InvalidArgument("--contention must be adaptive, full or one, got '" + contention + "'"));
  }

  double t0 = NowMs();
  open.intra_op_threads = static_cast<int>(*threads);
  open.seed = static_cast<uint64_t>(*seed);
  open.profile = flags.GetBool("profile");
  open.trace = flags.Has("trace");  // --trace=FILE.json: a Chrome / Perfetto timeline (OfflineModel::WriteTrace)
  if (open.trace && (flags.Get("trace").empty() || flags.Get("trace") == "1")) {
    return Fail(InvalidArgument("--trace needs the file to write: --trace=FILE.json"));
  }
  if (open.trace && *pipeline_stages > 0) {
    return Fail(InvalidArgument("--trace: a pipelined model (--pipeline_stages) records no timeline"));
  }
  open.interpreter = flags.GetBool("interpreter");
  open.pipeline_stages = static_cast<size_t>(*pipeline_stages);
  auto ge_options = OptionPairsFromFlags(flags);
  if (!ge_options.ok()) return Fail(ge_options.status());
  Status checked = CheckOptions(*ge_options, OptionScope::kModelLoad, "--option");
  if (!checked.ok()) return Fail(checked);
  open.runtime_options = *ge_options;
  auto runner_or = Runner::Open(model_path, open);
  if (!runner_or.ok()) return Fail(runner_or.status());
  Runner& runner = *runner_or;
  double load_ms = NowMs() - t0;
  const int threads_used = std::string(runner.engine()) == "interpreter" ? 1 : static_cast<int>(*threads);
  if (flags.Has("threads") && threads_used != *threads) {
    std::fprintf(stderr, "ge run: note: --threads=%lld is ignored: the %s runs on %d thread(s)\n",
                 static_cast<long long>(*threads), runner.engine(), threads_used);
  }
  if (!open.runtime_options.empty() && std::string(runner.engine()) != "v2") {
    std::fprintf(stderr, "ge run: note: --option keys are read by runtime v2 when it loads a model; this model runs "
                 "on '%s', which ignores them\n", runner.engine());
  }

  auto inputs = BindInputs(flags, runner.inputs());
  if (!inputs.ok()) return Fail(inputs.status());
  for (size_t i = 0; i < inputs->size(); ++i) {
    Status s = CheckInput((*inputs)[i], runner.inputs()[i]);
    if (!s.ok()) return Fail(s);
  }

  std::optional<Vary> vary;
  if (flags.Has("vary")) {
    auto v = ParseVary(flags.Get("vary"), runner.inputs(), *inputs);
    if (!v.ok()) return Fail(v.status());
    vary = *v;
  }
  std::mt19937_64 vary_rng(20240601);  // fixed: every run of the command feeds the same sequence of sizes
  const Tensor vary_base = vary ? (*inputs)[vary->input] : Tensor();
  auto next_inputs = [&]() -> Status {
    if (!vary) return Status::Ok();
    GE_ASSIGN_OR_RETURN((*inputs)[vary->input], VariedInput(*vary, vary_base, vary_rng));
    return Status::Ok();
  };

  std::vector<Tensor> outputs;
  for (int64_t i = 0; i < *warmup; ++i) {
    Status s = next_inputs();
    if (s.ok()) s = runner.Run(*inputs, &outputs);
    if (!s.ok()) return Fail(s);
  }
  const double rss_after_warmup = CurrentRssMb();
  // What the RSS after the warm-up is made of, to compare with the end (--json's memory_after_warmup, memory).
  std::string memory_after_warmup = MemoryJson(runner.model());
  memory_after_warmup += (memory_after_warmup.empty() ? "" : ",") + HeapJson();
  std::vector<double> times;
  double batch_ms = 0;
  const size_t pipeline = runner.model().pipeline_stages();
  if (pipeline > 0) {
    // The --loop requests as one stream through the pipeline: the time per request is the batch's wall time
    // divided by their number (the stages overlap successive requests).
    std::vector<std::vector<Tensor>> requests, batch_out;
    for (int64_t i = 0; i < *loop; ++i) {
      Status s = next_inputs();
      if (!s.ok()) return Fail(s);
      requests.push_back(*inputs);
    }
    const double s0 = NowMs();
    Status s = runner.model().ExecuteBatch(requests, &batch_out);
    if (!s.ok()) return Fail(s);
    batch_ms = NowMs() - s0;
    times.assign(static_cast<size_t>(*loop), batch_ms / static_cast<double>(*loop));
    outputs = std::move(batch_out.back());
  }
  for (int64_t i = 0; pipeline == 0 && i < *loop; ++i) {
    Status s = next_inputs();
    if (!s.ok()) return Fail(s);
    double s0 = NowMs();
    s = runner.Run(*inputs, &outputs);
    if (!s.ok()) return Fail(s);
    times.push_back(NowMs() - s0);
  }
  const double rss_end = CurrentRssMb();
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted[sorted.size() / 2], min_ms = sorted.front();

  std::string out_dir = flags.Get("output_dir");
  if (!out_dir.empty()) {
    ::mkdir(out_dir.c_str(), 0755);
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::string name = runner.outputs()[i].name;
      Status s = WriteNpy(out_dir + "/" + SanitizeFileName(name) + ".npy", outputs[i]);
      if (!s.ok()) return Fail(s);
    }
  }

  if (open.profile) PrintProfile(runner.model().Profile(), static_cast<size_t>(*profile_nodes));
  if (open.trace) {
    Status s = runner.model().WriteTrace(flags.Get("trace"));
    if (!s.ok()) return Fail(s);
  }
  if (flags.GetBool("json")) {
    std::ostringstream os;
    os.precision(6);
    os << std::fixed << "{\"model\":\"" << JsonEscape(model_path) << "\",\"engine\":\"" << runner.engine()
       << "\",\"load_ms\":" << load_ms << ",\"median_ms\":" << median << ",\"min_ms\":" << min_ms
       << ",\"iters\":" << *loop << ",\"threads\":" << threads_used << ",\"threads_requested\":" << *threads
       << ",\"peak_rss_mb\":" << PeakRssMb() << ",\"rss_after_warmup_mb\":" << rss_after_warmup
       << ",\"rss_end_mb\":" << rss_end;
    if (vary) os << ",\"vary\":\"" << JsonEscape(flags.Get("vary")) << "\"";
    if (pipeline > 0) os << ",\"pipeline_stages\":" << pipeline << ",\"batch_ms\":" << batch_ms;
    std::string memory = MemoryJson(runner.model());
    memory += (memory.empty() ? "" : ",") + HeapJson();
    os << ",\"memory_after_warmup\":{" << memory_after_warmup << "},\"memory\":{" << memory << "}";
    os << ",\"target\":\"" << runner.model().target() << "\",\"impls\":" << CountsJson(runner.model().kernel_impls())
       << ",\"outputs\":[";
    for (size_t i = 0; i < outputs.size(); ++i) {
      os << (i ? "," : "") << "{\"name\":\"" << JsonEscape(runner.outputs()[i].name) << "\",\"dtype\":\""
         << DataTypeName(outputs[i].dtype()) << "\",\"shape\":" << DimsToString(outputs[i].dims()) << "}";
    }
    os << "]}";
    std::printf("%s\n", os.str().c_str());
  } else {
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::printf("%s\n", SummarizeTensor(runner.outputs()[i].name, outputs[i]).c_str());
    }
    std::printf("load %.2f ms, run median %.3f ms, min %.3f ms over %lld iterations, peak RSS %.1f MB\n", load_ms,
                median, min_ms, static_cast<long long>(*loop), PeakRssMb());
  }
  return 0;
}

}  // namespace ge::cli
