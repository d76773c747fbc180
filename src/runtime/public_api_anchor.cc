// libge.so's own translation unit (a shared library needs one). The public API's implementation lives in static
// archives (ge_runtime, ge_session, ge_single_op, ge_api, ge_base); a linker takes an archive member only when
// something references it, so this table references one entry point of each public API's object file.
#include "ge/compile.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/options.h"
#include "ge/session.h"
#include "ge/single_op.h"
#include "ge/training.h"

namespace ge {
namespace {

using CompileFn = StatusOr<CompiledModel> (*)(const CompileSource&, const CompileOptions&);
using LoadFromFileFn = StatusOr<std::unique_ptr<OfflineModel>> (*)(const std::string&, const OfflineModelOptions&);
using LoadOnInterpreterFn = StatusOr<std::unique_ptr<OfflineModel>> (*)(const CompileSource&,
                                                                        const OfflineModelOptions&);
using ListOptionsFn = std::vector<OptionDescription> (*)();
using UsableCpuCountFn = int (*)();
using InitializeFn = Status (*)(const Options&);
using GraphFromOnnxFn = StatusOr<Graph> (*)(const std::string&);
using LowerTrainingFn = StatusOr<TrainingGraphs> (*)(const Graph&);
using SessionStatusFn = Status (Session::*)() const;
using SingleOpCreateFn = StatusOr<std::unique_ptr<SingleOp>> (*)(const std::string&, const std::vector<OpTensorDesc>&,
                                                                 const Attrs&, const SingleOpOptions&);
using DynamicSingleOpCreateFn = StatusOr<std::unique_ptr<DynamicSingleOp>> (*)(const std::string&, const Attrs&,
                                                                               const SingleOpOptions&);

}  // namespace

// Exported, so no linker drops it (and with it the object files it references).
[[gnu::visibility("default")]] extern const void* const kPublicApiAnchors[];
const void* const kPublicApiAnchors[] = {
    reinterpret_cast<const void*>(static_cast<CompileFn>(&Compile)),
    reinterpret_cast<const void*>(static_cast<LoadFromFileFn>(&OfflineModel::LoadFromFile)),
    reinterpret_cast<const void*>(static_cast<LoadOnInterpreterFn>(&LoadOnInterpreter)),
    reinterpret_cast<const void*>(static_cast<ListOptionsFn>(&ListOptions)),
    reinterpret_cast<const void*>(static_cast<UsableCpuCountFn>(&UsableCpuCount)),
    reinterpret_cast<const void*>(static_cast<InitializeFn>(&GEInitialize)),
    reinterpret_cast<const void*>(static_cast<GraphFromOnnxFn>(&Graph::FromOnnxFile)),
    reinterpret_cast<const void*>(static_cast<LowerTrainingFn>(&LowerTraining)),
    reinterpret_cast<const void*>(static_cast<SingleOpCreateFn>(&SingleOp::Create)),
    reinterpret_cast<const void*>(static_cast<DynamicSingleOpCreateFn>(&DynamicSingleOp::Create)),
};
// Member functions: a pointer-to-member cannot be cast to void*; taking it still references the object file.
[[gnu::visibility("default")]] extern const SessionStatusFn kSessionAnchor;
const SessionStatusFn kSessionAnchor = &Session::status;

}  // namespace ge
