// ge run-op: one op of ge's op table on .npy inputs through the public single-op API (include/ge/single_op.h),
// like any library user: the static form (prepared once) for the outputs and its time per call, the dynamic form
// (descs per call, cached kernels) for comparison.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "base/npy.h"
#include "commands.h"
#include "flags.h"
#include "ge/single_op.h"
#include "json_text.h"
#include "tensor_text.h"

namespace ge::cli {
namespace {

int Fail(const Status& s) {
  std::fprintf(stderr, "ge run-op: %s\n", s.ToString().c_str());
  return 1;
}

bool ParseInt(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  *v = x;
  return true;
}

bool ParseFloat(const std::string& s, float* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (*end != '\0') return false;
  *v = static_cast<float>(x);
  return true;
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    const size_t end = comma == std::string::npos ? s.size() : comma;
    items.push_back(s.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!items.empty() && items.back().empty()) items.pop_back();  // "1," is the one-element list [1]
  return items;
}

// VALUE of --attr=NAME=VALUE: "text" a string; [a,b] or a,b a list (of ints, else floats, else strings; [] empty);
// an integer; a number; anything else a string.
AttrValue ParseAttrValue(const std::string& v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return AttrValue(v.substr(1, v.size() - 2));
  const bool bracketed = v.size() >= 2 && v.front() == '[' && v.back() == ']';
  if (bracketed || v.find(',') != std::string::npos) {
    const std::vector<std::string> items = SplitList(bracketed ? v.substr(1, v.size() - 2) : v);
    std::vector<int64_t> ints;
    std::vector<float> floats;
    bool all_int = true, all_float = true;
    for (const std::string& item : items) {
      int64_t i = 0;
      float f = 0;
      all_int = all_int && ParseInt(item, &i);
      if (all_int) ints.push_back(i);
      all_float = all_float && ParseFloat(item, &f);
      if (all_float) floats.push_back(f);
    }
    if (all_int) return AttrValue(ints);
    if (all_float) return AttrValue(floats);
    return AttrValue(items);
  }
  int64_t i = 0;
  float f = 0;
  if (ParseInt(v, &i)) return AttrValue(i);
  if (ParseFloat(v, &f)) return AttrValue(f);
  return AttrValue(v);
}

StatusOr<Attrs> ParseAttrs(const Flags& flags) {
  Attrs attrs;
  for (const std::string& spec : flags.GetAll("attr")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) return InvalidArgument("--attr=" + spec + ": expected NAME=VALUE");
    attrs.insert_or_assign(spec.substr(0, eq), ParseAttrValue(spec.substr(eq + 1)));
  }
  return attrs;
}

// --input=FILE.npy (a runtime input), --input=const:FILE.npy (a constant), --input= (an omitted optional input).
struct Inputs {
  std::vector<OpTensorDesc> descs;  // one per op input
  std::vector<Tensor> runtime;      // the ones Run takes
};

StatusOr<Inputs> ReadInputs(const Flags& flags) {
  Inputs in;
  for (const std::string& spec : flags.GetAll("input")) {
    if (spec.empty()) {
      in.descs.emplace_back();
      continue;
    }
    const bool constant = spec.rfind("const:", 0) == 0;
    GE_ASSIGN_OR_RETURN(Tensor t, ReadNpy(constant ? spec.substr(6) : spec));
    if (constant) {
      in.descs.push_back(OpTensorDesc::Constant(t));
    } else {
      in.descs.emplace_back(t.dtype(), t.dims());
      in.runtime.push_back(std::move(t));
    }
  }
  return in;
}

struct Timing {
  double median_us = 0;
  double min_us = 0;
};

// `warmup` calls, then `iters` calls in up to 100 timed batches: per-call median and minimum over the batches.
template <typename Call>
StatusOr<Timing> TimeCalls(int64_t iters, int64_t warmup, Call&& call) {
  for (int64_t i = 0; i < warmup; ++i) GE_RETURN_IF_ERROR(call());
  const int64_t batches = std::min<int64_t>(iters, 100);
  std::vector<double> per_call;
  int64_t done = 0;
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t n = (iters - done) / (batches - b);
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < n; ++i) {
      Status s = call();
      if (!s.ok()) return s;
    }
    const auto t1 = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(n));
    done += n;
  }
  std::sort(per_call.begin(), per_call.end());
  return Timing{per_call[per_call.size() / 2], per_call.front()};
}

std::vector<InputBuffer> InputBuffersOf(const std::vector<Tensor>& inputs) {
  std::vector<InputBuffer> b;
  for (const Tensor& t : inputs) b.push_back({t.raw_data(), t.nbytes()});
  return b;
}

std::vector<OutputBuffer> OutputBuffersOf(std::vector<Tensor>& outputs) {
  std::vector<OutputBuffer> b;
  for (Tensor& t : outputs) b.push_back({t.raw_data(), t.nbytes()});
  return b;
}

}  // namespace

const CommandSpec& RunOpCommandSpec() {
  static const CommandSpec spec = {
      "run-op",
      "--op=NAME --input=FILE.npy ...",
      "run one op of ge's op table on .npy inputs through the single-op API, timed",
      {{"op", "NAME", "the op: an ONNX op type (Add, Conv, ...), or one of ge's with --domain=ge"},
       {"domain", "D", "the op's domain (default ai.onnx)"},
       {"input", "FILE.npy|const:FILE.npy|", "one per op input, in order: a runtime input, a constant, or omitted"},
       {"attr", "NAME=VALUE", "an attribute: 1, 0.5, reflect or \"reflect\", 0,2,1 or [0,2,1] (repeatable)"},
       {"output_dir", "DIR", "write OUTPUT_NAME.npy per output"},
       {"loop", "N", "timed calls of the static and the dynamic form (default 1)"},
       {"warmup", "N", "untimed calls before them (default 10)"},
       {"threads", "N", "intra-op threads (default 1; 0: the CPUs this process may use)"},
       {"opset", "N", "the ONNX opset the op and attributes follow (default 17)"},
       {"num_outputs", "N", "outputs to produce (default: those ONNX requires)"},
       {"option", "KEY=VALUE", "ge.engine.<name>=0|1 or ge.exec.precision_mode=... (repeatable)"},
       {"json", "", "print one line of JSON: op, engine, impl, median_us, min_us, ..., outputs"}}};
  return spec;
}

int RunOpCommand(int argc, char** argv) {
  auto flags_or = ParseFlags(argc, argv, 2, RunOpCommandSpec());
  if (!flags_or.ok()) return Fail(flags_or.status());
  const Flags& flags = *flags_or;
  const std::string op_type = flags.Get("op");
  if (op_type.empty()) return Fail(InvalidArgument("--op=NAME is required (an ONNX op type, e.g. --op=Add)"));
  auto loop = flags.GetInt("loop", 1, 1, 100000000);
  auto warmup = flags.GetInt("warmup", 10, 0, 100000000);
  auto threads = flags.GetInt("threads", 1, 0, 1024);
  auto opset = flags.GetInt("opset", 17, 1, 1000);
  auto num_outputs = flags.GetInt("num_outputs", 0, 0, 1024);
  for (auto* s : {&loop, &warmup, &threads, &opset, &num_outputs}) {
    if (!s->ok()) return Fail(s->status());
  }
  SingleOpOptions options;
  options.domain = flags.Get("domain");
  options.opset = *opset;
  options.intra_op_threads = static_cast<int>(*threads);
  options.num_outputs = static_cast<int>(*num_outputs);
  for (const std::string& kv : flags.GetAll("option")) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return Fail(InvalidArgument("--option=" + kv + ": expected KEY=VALUE"));
    options.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  auto attrs = ParseAttrs(flags);
  if (!attrs.ok()) return Fail(attrs.status());
  auto inputs = ReadInputs(flags);
  if (!inputs.ok()) return Fail(inputs.status());

  auto op_or = SingleOp::Create(op_type, inputs->descs, *attrs, options);
  if (!op_or.ok()) {
    const Status& e = op_or.status();
    if (e.message().find("OpTensorDesc::Constant") == std::string::npos) return Fail(e);
    return Fail(e.WithContext("pass shape operands as --input=const:FILE.npy"));
  }
  SingleOp& op = **op_or;
  std::vector<Tensor> outputs;
  Status s = op.Run(inputs->runtime, &outputs);
  if (!s.ok()) return Fail(s);

  const std::string out_dir = flags.Get("output_dir");
  if (!out_dir.empty()) {
    ::mkdir(out_dir.c_str(), 0755);
    for (size_t i = 0; i < outputs.size(); ++i) {
      s = WriteNpy(out_dir + "/" + SanitizeFileName(op.output_names()[i]) + ".npy", outputs[i]);
      if (!s.ok()) return Fail(s);
    }
  }

  // Timing writes into copies: the reported outputs are those of the first run.
  std::vector<Tensor> scratch;
  for (const Tensor& t : outputs) {
    auto copy = t.Clone();
    if (!copy.ok()) return Fail(copy.status());
    scratch.push_back(std::move(copy).value());
  }
  const std::vector<InputBuffer> in_bufs = InputBuffersOf(inputs->runtime);
  const std::vector<OutputBuffer> out_bufs = OutputBuffersOf(scratch);
  auto static_time = TimeCalls(*loop, *warmup, [&] { return op.Run(in_bufs, out_bufs); });
  if (!static_time.ok()) return Fail(static_time.status());
  auto dyn_or = DynamicSingleOp::Create(op_type, *attrs, options);
  if (!dyn_or.ok()) return Fail(dyn_or.status());
  DynamicSingleOp& dyn = **dyn_or;
  // At least one warm-up call: the first prepares the kernel (a cache miss), the steady state is a hit.
  auto dynamic_time = TimeCalls(*loop, std::max<int64_t>(*warmup, 1),
                                [&] { return dyn.Run(inputs->descs, in_bufs, out_bufs); });
  if (!dynamic_time.ok()) return Fail(dynamic_time.status());

  if (flags.GetBool("json")) {
    std::ostringstream os;
    os.precision(4);
    os << std::fixed << "{\"op\":\"" << JsonEscape(op_type) << "\",\"engine\":\"" << JsonEscape(op.engine())
       << "\",\"impl\":\"" << JsonEscape(op.kernel_impl()) << "\",\"median_us\":" << static_time->median_us
       << ",\"min_us\":" << static_time->min_us << ",\"dynamic_median_us\":" << dynamic_time->median_us
       << ",\"dynamic_min_us\":" << dynamic_time->min_us << ",\"iters\":" << *loop << ",\"threads\":" << *threads
       << ",\"outputs\":[";
    for (size_t i = 0; i < outputs.size(); ++i) {
      os << (i ? "," : "") << "{\"name\":\"" << JsonEscape(op.output_names()[i]) << "\",\"dtype\":\""
         << DataTypeName(outputs[i].dtype()) << "\",\"shape\":" << DimsToString(outputs[i].dims()) << "}";
    }
    os << "]}";
    std::printf("%s\n", os.str().c_str());
  } else {
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::printf("%s\n", SummarizeTensor(op.output_names()[i], outputs[i]).c_str());
    }
    std::printf("%s on %s (%s): static median %.3f us, min %.3f us; dynamic median %.3f us, min %.3f us per call "
                "over %lld calls\n",
                op_type.c_str(), op.engine().c_str(), op.kernel_impl().c_str(), static_time->median_us,
                static_time->min_us, dynamic_time->median_us, dynamic_time->min_us, static_cast<long long>(*loop));
  }
  return 0;
}

}  // namespace ge::cli
