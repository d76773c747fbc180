// The persistent model cache (ge.graph_compiler_cache_dir): the cache directory's rules (model_cache.h) and a
// session's use of it (graph_model_cache.h). A hit is seen from outside: the cached file is not replaced (same
// inode) and no new file appears.
#include "session/model_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ge/session.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

class ModelCacheTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
  void SetUp() override {
    char tmpl[] = "/tmp/ge_model_cache_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> CachedFiles() const {
    std::vector<std::string> out;
    if (!fs::exists(dir_)) return out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  Options CacheOptions() const { return {{"ge.graph_compiler_cache_dir", dir_}}; }

  std::string dir_;
};

ino_t Inode(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

Tensor Floats(std::vector<float> v) { return Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())}); }

std::vector<float> Values(const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

// v += x, output the new v (a variable with an init value, written by the graph).
Graph Accumulate() {
  Graph g("accumulate");
  const Tensor init = Floats({1, 2, 3, 4});
  auto v = g.Variable("v", DataType::kFloat, {4}, &init);
  auto x = g.Input("x", DataType::kFloat, {4});
  g.AddOutput(g.Assign(v, g.Op1("Add", {v, x})));
  return g;
}

// Reads v as float32[dims]: the same 4 floats in another shape.
Graph ReadsV(std::vector<int64_t> dims) {
  Graph g("reads_v");
  auto v = g.Variable("v", DataType::kFloat, dims);
  auto two = g.Constant("two", Tensor::Scalar<float>(2.0f));
  g.AddOutput(g.Op1("Mul", {v, two}));
  return g;
}

// Runs Accumulate once in a new session with |options| and returns its output.
std::vector<float> RunAccumulate(const Options& session_options, const Options& graph_options = {}) {
  Session s(session_options);
  EXPECT_TRUE(s.status().ok()) << s.status().ToString();
  EXPECT_TRUE(s.AddGraph(1, Accumulate(), graph_options).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraph(1, {Floats({1, 1, 1, 1})}, out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out.empty() ? std::vector<float>{} : Values(out[0]);
}

TEST_F(ModelCacheTest, KeysDependOnEveryField) {
  using session::CacheKeyBuilder;
  const std::string base = CacheKeyBuilder().Add("a", "1").Add("b", "2").Key();
  EXPECT_EQ(base.size(), 32u);
  EXPECT_EQ(base, CacheKeyBuilder().Add("a", "1").Add("b", "2").Key());
  EXPECT_NE(base, CacheKeyBuilder().Add("a", "1").Add("b", "3").Key());
  EXPECT_NE(base, CacheKeyBuilder().Add("a", "12").Add("b", "").Key());  // fields never run into each other
  // The cache directory itself and options no compile reads are not part of a compile's key.
  EXPECT_EQ(CacheKeyBuilder().AddCompileOptions({{"ge.fusion", "0"}, {"ge.graph_compiler_cache_dir", "/x"}}).Key(),
            CacheKeyBuilder().AddCompileOptions({{"ge.fusion", "0"}, {"ge.exec.profilingMode", "1"}}).Key());
  EXPECT_NE(CacheKeyBuilder().AddCompileOptions({{"ge.fusion", "0"}}).Key(),
            CacheKeyBuilder().AddCompileOptions({{"ge.fusion", "1"}}).Key());
  // The environment: the same in one process, another under a oneDNN ISA limit (which changes what "native" means).
  const std::string env = CacheKeyBuilder().AddEnvironment().Key();
  EXPECT_EQ(env, CacheKeyBuilder().AddEnvironment().Key());
  const char* old_limit = std::getenv("ONEDNN_MAX_CPU_ISA");
  const std::string saved = old_limit == nullptr ? "" : old_limit;
  setenv("ONEDNN_MAX_CPU_ISA", saved == "AVX2" ? "SSE41" : "AVX2", 1);
  EXPECT_NE(env, CacheKeyBuilder().AddEnvironment().Key());
  if (old_limit == nullptr) {
    unsetenv("ONEDNN_MAX_CPU_ISA");
  } else {
    setenv("ONEDNN_MAX_CPU_ISA", saved.c_str(), 1);
  }
}

TEST(ModelCacheHash, SeesEveryByteAndTheLength) {
  std::vector<uint8_t> bytes(1000, 0);
  std::set<std::pair<uint64_t, uint64_t>> seen;
  auto add = [&](const void* data, size_t size) {
    const session::Hash128 h = session::HashBytes(data, size);
    return seen.insert({h.lo, h.hi}).second;
  };
  for (size_t n = 0; n <= bytes.size(); ++n) EXPECT_TRUE(add(bytes.data(), n)) << "zeros of length " << n;
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = 1;
    EXPECT_TRUE(add(bytes.data(), bytes.size())) << "byte " << i;
    bytes[i] = 0;
  }
}

TEST_F(ModelCacheTest, SecondSessionCompileHitsTheCache) {
  const std::vector<float> first = RunAccumulate(CacheOptions());
  EXPECT_EQ(first, (std::vector<float>{2, 3, 4, 5}));
  const std::vector<std::string> files = CachedFiles();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::path(files[0]).extension(), ".om");
  const ino_t inode = Inode(files[0]);
  // A new session starts from the init value again: the cached model restores the variable and its init value.
  EXPECT_EQ(RunAccumulate(CacheOptions()), first);
  EXPECT_EQ(CachedFiles(), files);
  EXPECT_EQ(Inode(files[0]), inode) << "the second compile wrote the model again instead of loading it";
}

// A hit stands in for the whole compile: the summary lists the graph's variables as a compile would.
TEST_F(ModelCacheTest, AHitReportsTheGraphsVariables) {
  RunAccumulate(CacheOptions());
  ASSERT_EQ(CachedFiles().size(), 1u);
  Session s(CacheOptions());
  ASSERT_TRUE(s.AddGraph(1, Accumulate()).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  EXPECT_EQ(CachedFiles().size(), 1u);  // a hit: nothing new stored
  CompiledGraphSummary summary;
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  EXPECT_EQ(summary.variables, std::vector<std::string>{"v"});
  EXPECT_FALSE(s.IsGraphNeedRebuild(1));
}

// Two graphs sharing a variable, compiled in the same order by a second session: both come from the cache, and
// the variable they share is one (a write by one is what the other reads).
TEST_F(ModelCacheTest, GraphsSharingVariablesHitInTheSameOrder) {
  std::vector<std::string> files;
  for (int round = 0; round < 2; ++round) {
    Session s(CacheOptions());
    ASSERT_TRUE(s.AddGraph(1, Accumulate()).ok());
    ASSERT_TRUE(s.AddGraph(2, ReadsV({4})).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(s.RunGraph(1, {Floats({1, 1, 1, 1})}, out).ok());
    Status st = s.RunGraph(2, {}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(Values(out[0]), (std::vector<float>{4, 6, 8, 10}));
    ASSERT_TRUE(s.RunGraph(1, {Floats({1, 1, 1, 1})}, out).ok());
    ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
    EXPECT_EQ(Values(out[0]), (std::vector<float>{6, 8, 10, 12}));
    if (round == 0) files = CachedFiles();
  }
  EXPECT_EQ(files.size(), 2u);
  EXPECT_EQ(CachedFiles(), files);
}

TEST_F(ModelCacheTest, DynamicGraphFromTheCacheRunsAtAnySize) {
  std::vector<ino_t> inodes;
  for (int round = 0; round < 2; ++round) {
    Session s(CacheOptions());
    Graph g("dynamic");
    auto x = g.Input("x", DataType::kFloat, {-1});
    g.AddOutput(g.Op1("Relu", {x}));
    ASSERT_TRUE(s.AddGraph(3, g).ok());
    std::vector<Tensor> out;
    Status st = s.RunGraph(3, {Floats({-1, 2, -3})}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(Values(out[0]), (std::vector<float>{0, 2, 0}));
    ASSERT_TRUE(s.RunGraph(3, {Floats({5, -5})}, out).ok());
    EXPECT_EQ(Values(out[0]), (std::vector<float>{5, 0}));
    CompiledGraphSummary summary;
    ASSERT_TRUE(s.GetCompiledGraphSummary(3, &summary).ok());
    EXPECT_FALSE(summary.is_static);
    ASSERT_EQ(summary.inputs.size(), 1u);
    EXPECT_EQ(summary.inputs[0].dims, (std::vector<int64_t>{-1}));
    const std::vector<std::string> files = CachedFiles();
    ASSERT_EQ(files.size(), 1u);
    inodes.push_back(Inode(files[0]));
  }
  EXPECT_EQ(inodes[0], inodes[1]);
}

// CompileGraph / LoadGraph / RunGraphWithStreamAsync on a model from the cache; its summary is the compile's.
TEST_F(ModelCacheTest, CompiledGraphFromTheCacheLoadsAndRuns) {
  std::vector<CompiledGraphSummary> summaries;
  for (int round = 0; round < 2; ++round) {
    Session s(CacheOptions());
    Graph g("static");
    auto x = g.Input("x", DataType::kFloat, {4});
    auto bias = g.Constant("bias", Floats({1, 1, 1, 1}));
    g.AddOutput(g.Op1("Relu", {g.Op1("Add", {x, bias})}));
    ASSERT_TRUE(s.AddGraph(7, g).ok());
    ASSERT_TRUE(s.CompileGraph(7).ok());
    summaries.emplace_back();
    ASSERT_TRUE(s.GetCompiledGraphSummary(7, &summaries.back()).ok());
    ASSERT_TRUE(s.LoadGraph(7, {}, nullptr).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(s.RunGraphWithStreamAsync(7, nullptr, {Floats({-2, 2, -3, 4})}, out).ok());
    EXPECT_EQ(Values(out[0]), (std::vector<float>{0, 3, 0, 5}));
    EXPECT_EQ(CachedFiles().size(), 1u);
  }
  const CompiledGraphSummary &compiled = summaries[0], &cached = summaries[1];
  EXPECT_TRUE(cached.is_static);
  ASSERT_EQ(cached.inputs.size(), 1u);
  EXPECT_EQ(cached.inputs[0].name, compiled.inputs[0].name);
  EXPECT_EQ(cached.inputs[0].dims, (std::vector<int64_t>{4}));
  ASSERT_EQ(cached.outputs.size(), compiled.outputs.size());
  EXPECT_EQ(cached.outputs[0].dims, compiled.outputs[0].dims);
  EXPECT_EQ(cached.feature_memory_size, compiled.feature_memory_size);
  EXPECT_EQ(cached.const_memory_size, compiled.const_memory_size);
  EXPECT_EQ(cached.stream_num, compiled.stream_num);
  EXPECT_EQ(cached.event_num, compiled.event_num);
}

TEST_F(ModelCacheTest, ChangedOptionRecompiles) {
  RunAccumulate(CacheOptions());
  ASSERT_EQ(CachedFiles().size(), 1u);
  EXPECT_EQ(RunAccumulate(CacheOptions(), {{"ge.exec.disableReuseMemory", "1"}}), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(CachedFiles().size(), 2u);
  // Options no compile reads do not change the key.
  Options session_only = CacheOptions();
  session_only["ge.exec.profilingMode"] = "1";
  RunAccumulate(session_only);
  EXPECT_EQ(CachedFiles().size(), 2u);
}

TEST_F(ModelCacheTest, ChangedVariableDescRecompiles) {
  {
    Session s(CacheOptions());
    ASSERT_TRUE(s.AddGraph(1, ReadsV({4})).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  }
  ASSERT_EQ(CachedFiles().size(), 1u);
  // The same graph in a session where v is float32[2,2] (another graph declared it first): another key.
  Session s(CacheOptions());
  ASSERT_TRUE(s.AddGraph(2, ReadsV({2, 2})).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  const size_t after_other_graph = CachedFiles().size();
  EXPECT_EQ(after_other_graph, 2u);
  ASSERT_TRUE(s.AddGraph(1, ReadsV({4})).ok());
  Status st = s.RunGraph(1, {}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out[0].dims(), (Dims{4}));
  EXPECT_EQ(CachedFiles().size(), after_other_graph + 1) << "the cached model of another variable desc was used";
}

TEST_F(ModelCacheTest, TruncatedCacheFileIsRebuiltWithAWarning) {
  RunAccumulate(CacheOptions());
  const std::vector<std::string> files = CachedFiles();
  ASSERT_EQ(files.size(), 1u);
  const auto size = fs::file_size(files[0]);
  fs::resize_file(files[0], size / 2);
  testing::internal::CaptureStderr();
  const std::vector<float> out = RunAccumulate(CacheOptions());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, (std::vector<float>{2, 3, 4, 5}));
  EXPECT_NE(err.find("ge: warning: model cache: '" + files[0] + "' is not a valid model"), std::string::npos) << err;
  EXPECT_EQ(fs::file_size(files[0]), size);  // rebuilt
  session::ModelCache cache(dir_);
  EXPECT_TRUE(cache.Lookup(fs::path(files[0]).stem().string()).has_value());
}

TEST_F(ModelCacheTest, GarbageCacheFileIsRebuilt) {
  RunAccumulate(CacheOptions());
  const std::string file = CachedFiles()[0];
  std::ofstream(file, std::ios::trunc) << "not a model";
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunAccumulate(CacheOptions()), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_NE(testing::internal::GetCapturedStderr().find("is not a valid model"), std::string::npos);
  EXPECT_GT(fs::file_size(file), 1000u);
}

TEST_F(ModelCacheTest, UnwritableDirectoryWarnsAndStillCompiles) {
  const std::string file = dir_ + "/a_file";
  std::ofstream(file) << "x";
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunAccumulate({{"ge.graph_compiler_cache_dir", file + "/cache"}}), (std::vector<float>{2, 3, 4, 5}));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("cannot create the directory '" + file + "/cache'"), std::string::npos) << err;
  EXPECT_NE(err.find("the model is not cached"), std::string::npos) << err;
}

TEST_F(ModelCacheTest, MissingDirectoryIsCreated) {
  const std::string nested = dir_ + "/a/b";
  EXPECT_EQ(RunAccumulate({{"ge.graph_compiler_cache_dir", nested}}), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(std::distance(fs::directory_iterator(nested), fs::directory_iterator()), 1);
}

TEST_F(ModelCacheTest, MisspeltOptionIsRefused) {
  Session s({{"ge.graph_compiler_cachedir", dir_}});
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("ge.graph_compiler_cache_dir"), std::string::npos) << s.status().ToString();
}

// Several writers of one key (threads here, processes below) leave a whole, valid file, and a reader meanwhile
// sees either nothing or a valid model.
std::vector<uint8_t> CachedImage(const std::string& dir) {
  RunAccumulate({{"ge.graph_compiler_cache_dir", dir}});
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return {};
}

std::vector<uint8_t> Bytes(const session::CachedModel& m) {
  const om::ByteSpan image = m.reader->image();
  return std::vector<uint8_t>(image.data, image.data + image.size);
}

TEST_F(ModelCacheTest, ConcurrentWritersLeaveAValidFile) {
  const std::vector<uint8_t> image = CachedImage(dir_ + "/source");
  ASSERT_GT(image.size(), 256u);
  session::ModelCache cache(dir_ + "/shared");
  const std::string key = "0123456789abcdef0123456789abcdef";
  std::vector<std::string> warnings;
  std::atomic<bool> invalid_seen{false};
  session::ModelCache reader(dir_ + "/shared", [&](const std::string&) { invalid_seen = true; });
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) EXPECT_TRUE(cache.Store(key, image.data(), image.size()));
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 200; ++i) (void)reader.Lookup(key);
  });
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(invalid_seen) << "a reader saw a partly written file";
  auto hit = cache.Lookup(key);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(Bytes(*hit), image);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ + "/shared"), fs::directory_iterator()), 1)
      << "temporary files were left behind";
}

TEST_F(ModelCacheTest, ConcurrentProcessesLeaveAValidFile) {
  const std::vector<uint8_t> image = CachedImage(dir_ + "/source");
  ASSERT_GT(image.size(), 256u);
  const std::string shared = dir_ + "/shared";
  const std::string key = "fedcba9876543210fedcba9876543210";
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      session::ModelCache cache(shared);
      bool ok = true;
      for (int i = 0; i < 10; ++i) ok = cache.Store(key, image.data(), image.size()) && ok;
      _exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto hit = session::ModelCache(shared).Lookup(key);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(Bytes(*hit), image);
}

}  // namespace
}  // namespace ge
