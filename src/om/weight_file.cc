#include "om/weight_file.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "om/checksum.h"

namespace ge::om {

namespace {

Status AttrError(const ir::Node& node, const std::string& message) {
  return DataLoss("FileConstant '" + node.name() + "': " + message);
}

}  // namespace

StatusOr<FileConstantRef> ReadFileConstantRef(const ir::Node& node) {
  const ir::AttrMap& a = node.attrs();
  FileConstantRef ref;
  const ir::AttrValue* dtype = a.Find(kFileConstantDtypeAttr);
  if (dtype == nullptr || dtype->type != ir::AttrValue::Type::kInt) return AttrError(node, "no int attribute 'dtype'");
  if (dtype->i <= 0 || dtype->i > kMaxDataTypeValue || !IsValidDataType(static_cast<int32_t>(dtype->i)) ||
      static_cast<DataType>(dtype->i) == DataType::kString) {
    return AttrError(node, "dtype " + std::to_string(dtype->i) + " is not a fixed-size data type");
  }
  ref.dtype = static_cast<DataType>(dtype->i);
  const ir::AttrValue* shape = a.Find(kFileConstantShapeAttr);
  if (shape == nullptr || shape->type != ir::AttrValue::Type::kInts) return AttrError(node, "no ints attribute 'shape'");
  ref.dims = shape->ints;
  auto numel = CheckedNumElements(ref.dims);
  if (!numel.ok()) return AttrError(node, "shape " + DimsToString(ref.dims) + ": " + numel.status().message());
  const uint64_t elem = DataTypeSize(ref.dtype);
  if (static_cast<uint64_t>(*numel) > static_cast<uint64_t>(kMaxTensorBytes) / elem) {
    return AttrError(node, "shape " + DimsToString(ref.dims) + " is too large");
  }
  const uint64_t bytes = static_cast<uint64_t>(*numel) * elem;
  ref.file_path = a.GetString(kFileConstantPathAttr, "");
  if (ref.file_path.empty()) {
    ref.file_id = a.GetString(kFileConstantIdAttr, "");
    if (ref.file_id.empty()) return AttrError(node, "neither a 'file_path' nor a 'file_id' attribute");
  }
  if (ref.file_path.find('\0') != std::string::npos || ref.file_id.find('\0') != std::string::npos) {
    return AttrError(node, "file_path or file_id holds a NUL byte");
  }
  const int64_t offset = a.GetInt(kFileConstantOffsetAttr, 0);
  if (offset < 0) return AttrError(node, "negative offset " + std::to_string(offset));
  ref.offset = static_cast<uint64_t>(offset);
  const int64_t length = a.GetInt(kFileConstantLengthAttr, static_cast<int64_t>(bytes));
  if (length < 0 || static_cast<uint64_t>(length) != bytes) {
    return AttrError(node, "length " + std::to_string(length) + " does not match " + DataTypeName(ref.dtype) +
                               DimsToString(ref.dims) + " (" + std::to_string(bytes) + " bytes)");
  }
  ref.length = bytes;
  if (const ir::AttrValue* crc = a.Find(kFileConstantCrcAttr)) {
    if (crc->type != ir::AttrValue::Type::kInt || crc->i < 0 || crc->i > 0xFFFFFFFFll) {
      return AttrError(node, "crc32c is not a 32-bit unsigned int");
    }
    ref.crc32c = static_cast<uint32_t>(crc->i);
  }
  return ref;
}

void WriteFileConstantRef(const FileConstantRef& ref, ir::AttrMap* attrs) {
  attrs->Set(kFileConstantDtypeAttr, ir::AttrValue::Int(static_cast<int64_t>(ref.dtype)));
  attrs->Set(kFileConstantShapeAttr, ir::AttrValue::Ints(ref.dims));
  if (!ref.file_path.empty() || ref.file_id.empty()) {
    attrs->Set(kFileConstantPathAttr, ir::AttrValue::String(ref.file_path));
  } else {
    attrs->Erase(kFileConstantPathAttr);
  }
  if (!ref.file_id.empty()) attrs->Set(kFileConstantIdAttr, ir::AttrValue::String(ref.file_id));
  attrs->Set(kFileConstantOffsetAttr, ir::AttrValue::Int(static_cast<int64_t>(ref.offset)));
  attrs->Set(kFileConstantLengthAttr, ir::AttrValue::Int(static_cast<int64_t>(ref.length)));
  if (ref.crc32c) attrs->Set(kFileConstantCrcAttr, ir::AttrValue::Int(static_cast<int64_t>(*ref.crc32c)));
}

StatusOr<std::shared_ptr<WeightFile>> WeightFile::Map(const std::string& path, int fd, uint64_t size) {
  std::shared_ptr<WeightFile> f(new WeightFile());
  f->path_ = path;
  f->size_ = size;
  if (size == 0) return f;
  if (size > static_cast<uint64_t>(SIZE_MAX)) return ResourceExhausted("weight file '" + path + "' is too large");
  // Populated at once: the checksums read every page before the first execution anyway.
  void* addr = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (addr == MAP_FAILED) {
    return ResourceExhausted("cannot map weight file '" + path + "': " + std::strerror(errno));
  }
  f->mapping_ = addr;
  f->data_ = static_cast<const uint8_t*>(addr);
  return f;
}

std::shared_ptr<WeightFile> WeightFile::FromMemory(std::string path, std::vector<uint8_t> bytes) {
  std::shared_ptr<WeightFile> f(new WeightFile());
  f->path_ = std::move(path);
  // 64-byte aligned as a mapping is (page aligned), so tensors borrow it as they would borrow a mapping.
  f->owned_.resize(bytes.size() + kTensorAlignment);
  const uintptr_t base = reinterpret_cast<uintptr_t>(f->owned_.data());
  uint8_t* aligned = f->owned_.data() + (kTensorAlignment - base % kTensorAlignment) % kTensorAlignment;
  if (!bytes.empty()) std::memcpy(aligned, bytes.data(), bytes.size());
  f->data_ = aligned;
  f->size_ = bytes.size();
  return f;
}

WeightFile::~WeightFile() {
  if (mapping_ != nullptr) ::munmap(mapping_, static_cast<size_t>(size_));
}

size_t WeightFile::verified_ranges() const {
  std::lock_guard<std::mutex> lk(mu_);
  return verified_.size();
}

StatusOr<Tensor> WeightFile::Read(const FileConstantRef& ref, const std::string& what) const {
  const std::string where = "weight file '" + path_ + "'";
  if (ref.offset > size_ || ref.length > size_ - ref.offset) {
    return DataLoss(where + " has " + std::to_string(size_) + " bytes, but " + what + " reads " +
                    std::to_string(ref.length) + " at offset " + std::to_string(ref.offset) +
                    " (truncated, or not the file the model was compiled with)");
  }
  auto numel = CheckedNumElements(ref.dims);
  const uint64_t elem = ref.dtype == DataType::kString ? 0 : DataTypeSize(ref.dtype);
  if (!numel.ok() || elem == 0 || static_cast<uint64_t>(*numel) > ref.length / elem ||
      static_cast<uint64_t>(*numel) * elem != ref.length) {
    return DataLoss(what + ": " + std::to_string(ref.length) + " bytes of " + where + " do not hold a " +
                    DataTypeName(ref.dtype) + DimsToString(ref.dims) + " tensor");
  }
  const uint8_t* p = data_ + ref.offset;
  if (ref.crc32c) {
    const auto key = std::make_tuple(ref.offset, ref.length, *ref.crc32c);
    bool known;
    {
      std::lock_guard<std::mutex> lk(mu_);
      known = verified_.count(key) != 0;
    }
    if (!known) {
      const uint32_t crc = Crc32c(0, p, static_cast<size_t>(ref.length));
      if (crc != *ref.crc32c) {
        return DataLoss(where + ": the " + std::to_string(ref.length) + " bytes at offset " +
                        std::to_string(ref.offset) + " that " + what +
                        " reads do not match its checksum (the file changed since the model was compiled)");
      }
      std::lock_guard<std::mutex> lk(mu_);
      verified_.insert(key);
    }
  }
  if (ref.dtype == DataType::kBool) {
    for (uint64_t i = 0; i < ref.length; ++i) {
      if (p[i] > 1) return DataLoss(where + ": bool tensor of " + what + " holds a byte other than 0/1");
    }
  }
  if (ref.length == 0) return Tensor::Create(ref.dtype, ref.dims);
  if (reinterpret_cast<uintptr_t>(p) % kTensorAlignment != 0) {
    // One aligned copy per range while any reader holds it, so models reading the same range share it too.
    std::lock_guard<std::mutex> lk(mu_);
    std::weak_ptr<TensorStorage>& cached = aligned_copies_[std::make_pair(ref.offset, ref.length)];
    if (std::shared_ptr<TensorStorage> storage = cached.lock()) return Tensor(ref.dtype, ref.dims, std::move(storage));
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(ref.dtype, ref.dims));
    std::memcpy(t.raw_data(), p, static_cast<size_t>(ref.length));
    cached = t.storage();
    return t;
  }
  // The storage API takes a mutable pointer; the bytes stay read-only (see the header).
  std::shared_ptr<void> keep_alive = std::const_pointer_cast<WeightFile>(shared_from_this());
  auto storage = TensorStorage::Borrow(const_cast<uint8_t*>(p), static_cast<size_t>(ref.length), keep_alive);
  return Tensor(ref.dtype, ref.dims, std::move(storage));
}

}  // namespace ge::om
