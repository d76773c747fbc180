// libFuzzer target: arbitrary bytes as a session graph's cached model (ge.graph_compiler_cache_dir). The cache maps
// and verifies the file (its checksum is fixed up here, so that mutations reach the partitions), reads the summary
// back from MODEL_DEF or the IR and replays VAR_INFO into the session's VarManager: each step accepts the file or
// turns it down with a warning, never a crash. GE_MC_FUZZ_WRITE_SEEDS=DIR writes a static and a dynamic model a
// session cached there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ge/session.h"
#include "om/om_format.h"
#include "om/om_verifier.h"
#include "session/graph_access.h"
#include "session/graph_model_cache.h"

namespace {

namespace fs = std::filesystem;

// A graph with a variable (init value, written by Assign), so that a hit replays VAR_INFO; dims -1: dynamic.
ge::Graph Accumulate(int64_t n) {
  ge::Graph g("accumulate");
  const ge::Tensor init = ge::Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  auto v = g.Variable("v", ge::DataType::kFloat, {4}, &init);
  auto x = g.Input("x", ge::DataType::kFloat, {n});
  g.AddOutput(g.Assign(v, g.Op1("Add", {v, x})));
  return g;
}

std::string TempDir() {
  char tmpl[] = "/tmp/ge_model_cache_fuzz.XXXXXX";
  return mkdtemp(tmpl) != nullptr ? tmpl : "/tmp";
}

void WriteSeeds(const std::string& out) {
  if (!ge::GEInitialize().ok()) std::exit(1);
  const std::string dir = TempDir();
  for (int64_t n : {4, -1}) {
    ge::Session s({{"ge.graph_compiler_cache_dir", dir}});
    if (!s.AddGraph(1, Accumulate(n)).ok() || !s.BuildGraph(1, {}).ok()) std::exit(1);
  }
  fs::create_directories(out);
  int index = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    fs::copy_file(e.path(), fs::path(out) / ("seed" + std::to_string(index++) + ".om"),
                  fs::copy_options::overwrite_existing);
  }
  fs::remove_all(dir);
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_MC_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const struct OwnedDir {  // removed at exit
    std::string path = TempDir();
    ~OwnedDir() { fs::remove_all(path); }
  } owned;
  const std::string& dir = owned.path;
  std::vector<uint8_t> bytes(data, data + size);
  if (bytes.size() >= ge::om::kOmHeaderSize) {
    ge::om::StoreU32(bytes.data() + ge::om::kOffChecksum, ge::om::ComputeOmChecksum(bytes.data(), bytes.size()));
  }
  for (int64_t n : {4, -1}) {
    ge::session::GraphEntry entry;
    entry.options = {{"ge.graph_compiler_cache_dir", dir}};
    auto model = ge::session::GraphAccess::CloneModel(ge::session::GraphAccess::Model(Accumulate(n)));
    if (!model.ok()) return 0;
    entry.model = std::move(*model);
    ge::var::VarManager variables(/*session_id=*/1, /*device=*/nullptr);
    if (!variables.Init(ge::var::VarManagerOptions()).ok()) return 0;
    const ge::session::GraphModelCache cache(entry, "graph_1", 1, variables, [](const std::string&) {});
    {
      std::ofstream file(ge::session::ModelCache(dir).PathFor(cache.key()), std::ios::binary | std::ios::trunc);
      file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    (void)cache.Find(entry, &variables, /*device=*/nullptr);
  }
  return 0;
}
