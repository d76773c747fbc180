# Type stub of the ge package (python/README.md): ONNX Runtime's InferenceSession API and ge's own compile and
# offline-model API over libge.
import enum
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np

__version__: str

ModelSource = Union[str, os.PathLike, bytes, bytearray, memoryview]
Dim = Union[int, str, None]

class Error(RuntimeError): ...
class InvalidArgument(Error, ValueError): ...
class NotFound(Error, LookupError): ...
class Unimplemented(Error, NotImplementedError): ...
class OutOfRange(Error, ValueError): ...
class ResourceExhausted(Error): ...
class FailedPrecondition(Error): ...
class DataLoss(Error): ...
class Timeout(Error): ...
class Aborted(Error): ...
class Internal(Error): ...

class NodeArg:
    @property
    def name(self) -> str: ...
    @property
    def shape(self) -> List[Dim]:
        """Known dims as ints, a named unknown dim as its symbol, an unnamed one as None."""
    @property
    def type(self) -> str:
        """ONNX Runtime's type string, e.g. 'tensor(float)'."""
    @property
    def dtype(self) -> Optional[np.dtype]: ...
    @property
    def dims(self) -> List[int]:
        """Dims with -1 for unknown ones."""
    @property
    def bytes(self) -> int:
        """Exact size in bytes (0 when dynamic)."""

class CompileReport:
    static_model: bool
    dynamic_reason: str
    runtime: str
    target: str
    notes: List[str]
    nodes_before: int
    nodes_after: int
    feature_map_bytes: int
    feature_map_lower_bound_bytes: int
    weights_bytes: int
    memory_strategy: str
    streams: int
    events: int
    tasks: int
    elided_concats: int
    impls: Dict[str, int]
    external_weight_tensors: int
    external_weights_bytes: int
    external_weight_files: List[str]
    external_data_tensors: int
    external_data_bytes: int
    static_islands: int
    static_island_nodes: int

@overload
def compile(model: ModelSource, output: None = ..., *, return_report: bool = ..., threads: int = ...,
            target: str = ..., input_shapes: Optional[Mapping[str, Sequence[Dim]]] = ...,
            input_shape: Optional[str] = ..., options: Optional[Mapping[str, Any]] = ..., runtime: str = ...,
            tune: bool = ..., embed_external_data: bool = ..., model_name: str = ...) -> Union[bytes, Tuple[bytes, CompileReport]]:
    """Compiles ONNX or ge IR text into .om bytes ((bytes, report) with return_report=True)."""
@overload
def compile(model: ModelSource, output: Union[str, os.PathLike], *, threads: int = ..., target: str = ...,
            input_shapes: Optional[Mapping[str, Sequence[Dim]]] = ..., input_shape: Optional[str] = ...,
            options: Optional[Mapping[str, Any]] = ..., runtime: str = ..., tune: bool = ...,
            embed_external_data: bool = ..., model_name: str = ...) -> CompileReport:
    """Compiles ONNX or ge IR text into the .om file `output`."""

def detect_model_format(model: ModelSource) -> str:
    """'onnx', 'geir', 'om' or 'unknown'."""

Feed = Union[Sequence[Any], Mapping[str, Any]]

class OfflineModel:
    def __init__(self, model: ModelSource, *, intra_op_threads: int = 0, max_concurrent_executions: int = 4,
                 profile: bool = False) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def inputs(self) -> List[NodeArg]: ...
    @property
    def outputs(self) -> List[NodeArg]: ...
    @property
    def runtime(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def dynamic(self) -> bool: ...
    @property
    def feature_map_bytes(self) -> int: ...
    @property
    def kernel_impls(self) -> Dict[str, int]: ...
    @property
    def loaded(self) -> bool: ...
    def execute(self, inputs: Feed) -> List[np.ndarray]: ...
    def profile(self) -> List[Dict[str, Any]]: ...
    def unload(self) -> None: ...
    def __enter__(self) -> "OfflineModel": ...
    def __exit__(self, *args: Any) -> None: ...

class GraphOptimizationLevel(enum.IntEnum):
    ORT_DISABLE_ALL: int
    ORT_ENABLE_BASIC: int
    ORT_ENABLE_EXTENDED: int
    ORT_ENABLE_ALL: int

class ExecutionMode(enum.IntEnum):
    ORT_SEQUENTIAL: int
    ORT_PARALLEL: int

class SessionOptions:
    intra_op_num_threads: int
    inter_op_num_threads: int
    graph_optimization_level: GraphOptimizationLevel
    execution_mode: ExecutionMode
    optimized_model_filepath: str
    log_severity_level: int
    log_verbosity_level: int
    logid: str
    enable_profiling: bool
    profile_file_prefix: str
    enable_cpu_mem_arena: bool
    enable_mem_pattern: bool
    enable_mem_reuse: bool
    use_deterministic_compute: bool
    def __init__(self) -> None: ...
    def add_session_config_entry(self, config_key: str, config_value: str) -> None: ...
    def get_session_config_entry(self, config_key: str) -> str: ...

class RunOptions:
    log_severity_level: int
    log_verbosity_level: int
    logid: str
    terminate: bool
    only_execute_path_to_fetches: bool
    def __init__(self) -> None: ...
    def add_run_config_entry(self, config_key: str, config_value: str) -> None: ...

class ModelMetadata:
    producer_name: str
    graph_name: str
    domain: str
    description: str
    graph_description: str
    version: int
    custom_metadata_map: Dict[str, str]

Provider = Union[str, Tuple[str, Dict[str, Any]]]

class InferenceSession:
    def __init__(self, path_or_bytes: ModelSource, sess_options: Optional[SessionOptions] = ...,
                 providers: Optional[Sequence[Provider]] = ..., provider_options: Optional[Sequence[Dict[str, Any]]] = ...,
                 **kwargs: Any) -> None: ...
    def run(self, output_names: Optional[Sequence[str]], input_feed: Mapping[str, Any],
            run_options: Optional[RunOptions] = ...) -> List[np.ndarray]: ...
    def get_inputs(self) -> List[NodeArg]: ...
    def get_outputs(self) -> List[NodeArg]: ...
    def get_overridable_initializers(self) -> List[NodeArg]: ...
    def get_modelmeta(self) -> ModelMetadata: ...
    def get_providers(self) -> List[str]: ...
    def get_provider_options(self) -> Dict[str, Dict[str, Any]]: ...
    def set_providers(self, providers: Optional[Sequence[Provider]] = ..., provider_options: Any = ...) -> None: ...
    def get_session_options(self) -> SessionOptions: ...
    def disable_fallback(self) -> None: ...
    def enable_fallback(self) -> None: ...
    def end_profiling(self) -> str: ...
    @property
    def offline_model(self) -> OfflineModel: ...

def get_available_providers() -> List[str]: ...
def get_all_providers() -> List[str]: ...
def get_device() -> str: ...
def set_default_logger_severity(severity: int) -> None: ...

class Constant:
    """A constant op input (a shape operand such as Reshape's shape)."""
    def __init__(self, value: Any) -> None: ...
    @property
    def value(self) -> np.ndarray: ...

OpInput = Union[np.ndarray, Constant, None, Tuple[Any, Sequence[int]]]
AttrValue = Union[int, float, str, np.ndarray, Sequence[int], Sequence[float], Sequence[str]]

class SingleOp:
    def __init__(self, op_type: str, inputs: Sequence[OpInput], attrs: Optional[Mapping[str, AttrValue]] = ..., *,
                 domain: str = ..., opset: int = ..., num_outputs: int = ..., threads: int = ...,
                 options: Optional[Mapping[str, Any]] = ...) -> None: ...
    def run(self, inputs: Sequence[np.ndarray]) -> List[np.ndarray]: ...
    @property
    def op_type(self) -> str: ...
    @property
    def inputs(self) -> List[Tuple[np.dtype, List[int]]]: ...
    @property
    def outputs(self) -> List[Tuple[np.dtype, List[int]]]: ...
    @property
    def output_names(self) -> List[str]: ...
    @property
    def engine(self) -> str: ...
    @property
    def kernel_impl(self) -> str: ...

def run_op(op_type: str, inputs: Sequence[Union[np.ndarray, Constant, None]],
           attrs: Optional[Mapping[str, AttrValue]] = ..., *, domain: str = ..., opset: int = ...,
           num_outputs: int = ..., threads: int = ..., options: Optional[Mapping[str, Any]] = ...) -> List[np.ndarray]:
    """Runs one op of ge's op table once on numpy arrays."""
