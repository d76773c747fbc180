"""ge: a graph compiler and runtime for neural networks on the CPU.

ONNX Runtime's calling convention (an ORT script runs by changing its import to ``import ge as onnxruntime``)::

    import ge
    sess = ge.InferenceSession("model.onnx")           # compiled in memory; an .om loads as it is
    outputs = sess.run(None, {"input": x})             # a list of numpy arrays

ge's own API::

    om = ge.compile("model.onnx", threads=4)           # .om bytes (or ge.compile(m, "model.om") writes a file)
    model = ge.OfflineModel(om)                        # or a path
    outputs = model.execute([x])                       # a list, or a dict by input name

Single ops (ge.run_op, ge.SingleOp) and GE's Session (ge.Session, ge.Graph: variables, checkpoints) too.
Errors are ge.Error subclasses (ge.InvalidArgument is also a ValueError) carrying ge's message.
"""
from ge._ge import (  # noqa: F401
    Aborted,
    CompileReport,
    Constant,
    DataLoss,
    Error,
    ExecutionMode,
    FailedPrecondition,
    Graph,
    GraphOptimizationLevel,
    InferenceSession,
    Internal,
    InvalidArgument,
    ModelMetadata,
    NodeArg,
    NotFound,
    OfflineModel,
    OutOfRange,
    ResourceExhausted,
    RunOptions,
    Session,
    SessionOptions,
    SingleOp,
    Timeout,
    Unimplemented,
    Value,
    compile,
    detect_model_format,
    get_all_providers,
    get_available_providers,
    finalize,
    get_device,
    initialize,
    lower_training,
    run_op,
    set_default_logger_severity,
    train,
)

__version__ = "@PROJECT_VERSION@"
