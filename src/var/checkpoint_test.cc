// Checkpoint files: bit-exact round trips, the documented layout, save from one session and restore into another,
// restore refusals, and corrupt or hostile files (each a DataLoss naming the problem).
#include "var/checkpoint.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "om/checksum.h"
#include "om/ir_proto.h"
#include "om/om_format.h"
#include "rt/testing/recording_device.h"
#include "var/checkpoint.pb.h"
#include "var/var_info.h"
#include "var/var_test_util.h"

namespace ge::var {
namespace {

using testing::Desc;
using testing::Var;

template <typename T>
CheckpointVariable Variable(const std::string& name, DataType dt, Dims dims, const std::vector<T>& elements,
                            Format format = Format::kND) {
  CheckpointVariable v;
  v.name = name;
  v.desc = Desc(std::move(dims), dt, format);
  v.value = Tensor::Create(dt, CheckpointValueDims(v.desc).value()).value();
  EXPECT_EQ(elements.size() * sizeof(T), v.value.nbytes()) << name;
  std::memcpy(v.value.raw_data(), elements.data(), v.value.nbytes());
  return v;
}

template <typename T>
T Bits(uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

bool SameBytes(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.dims() == b.dims() && a.nbytes() == b.nbytes() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

void ExpectSameCheckpoint(const Checkpoint& want, const Checkpoint& got) {
  ASSERT_EQ(want.variables.size(), got.variables.size());
  for (size_t i = 0; i < want.variables.size(); ++i) {
    const CheckpointVariable& w = want.variables[i];
    const CheckpointVariable& g = got.variables[i];
    EXPECT_EQ(w.name, g.name);
    EXPECT_EQ(w.desc.ToString(), g.desc.ToString()) << w.name;
    EXPECT_TRUE(SameBytes(w.value, g.value)) << w.name;
  }
  EXPECT_EQ(want.var_info, got.var_info);
}

// Every tricky bit pattern of the types a session's variables have.
Checkpoint TrickyCheckpoint() {
  Checkpoint c;
  c.variables.push_back(Variable<float>(
      "floats", DataType::kFloat, {2, 4},
      {Bits<float>(0x7fc00001), Bits<float>(0xffa00000),  // quiet NaN with payload, negative signaling NaN
       std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), -0.0f, 0.0f,
       std::numeric_limits<float>::denorm_min(), 3.25f}));
  c.variables.push_back(Variable<int64_t>("step", DataType::kInt64, {},
                                          {std::numeric_limits<int64_t>::min()}));
  c.variables.push_back(Variable<int64_t>("ints", DataType::kInt64, {3},
                                          {std::numeric_limits<int64_t>::max(), -1, 0}));
  c.variables.push_back(Variable<uint8_t>("mask", DataType::kBool, {5}, {0, 1, 1, 0, 1}));
  c.variables.push_back(Variable<uint16_t>("half", DataType::kFloat16, {4}, {0x7e01, 0xfc00, 0x8000, 0x3c00}));
  c.variables.push_back(Variable<double>("wide", DataType::kDouble, {1}, {Bits<double>(0x7ff8000000000abcull)}));
  c.variables.push_back(Variable<int32_t>("empty", DataType::kInt32, {0, 7}, {}));
  // NC1HWC0: C = 3 is stored padded to C0 = 16, so the value is [1, 1, 1, 2, 16].
  std::vector<float> blocked(32);
  for (size_t i = 0; i < blocked.size(); ++i) blocked[i] = static_cast<float>(i) - 7.5f;
  c.variables.push_back(Variable<float>("conv", DataType::kFloat, {1, 3, 1, 2}, blocked, Format::kNC1HWC0));
  c.var_info = std::string("\x08\x01\x10\x02", 4);
  return c;
}

TEST(Checkpoint, ValueDimsAreTheStorageDims) {
  EXPECT_EQ(CheckpointValueDims(Desc({2, 3})).value(), (Dims{2, 3}));
  EXPECT_EQ(CheckpointValueDims(Desc({1, 3, 4, 5}, Format::kNHWC)).value(), (Dims{1, 3, 4, 5}));
  EXPECT_EQ(CheckpointValueDims(Desc({2, 17, 4, 5}, Format::kNC1HWC0)).value(), (Dims{2, 2, 4, 5, 16}));
  EXPECT_EQ(CheckpointValueDims(Desc({2, 17, 4, 5}, WithC0(Format::kNC1HWC0, 8))).value(), (Dims{2, 3, 4, 5, 8}));
  EXPECT_EQ(CheckpointValueDims(Desc({-1, 3})).status().code(), StatusCode::kInvalidArgument);
}

TEST(Checkpoint, RoundTripIsBitExact) {
  const Checkpoint c = TrickyCheckpoint();
  const std::string bytes = SerializeCheckpoint(c).value();
  auto parsed = ParseCheckpoint(bytes.data(), bytes.size());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ExpectSameCheckpoint(c, *parsed);
  EXPECT_EQ(parsed->variables[7].desc.format, Format::kNC1HWC0);
  EXPECT_EQ(SerializeCheckpoint(*parsed).value(), bytes);  // deterministic
  Checkpoint none;
  const std::string empty = SerializeCheckpoint(none).value();
  EXPECT_EQ(empty.size(), kCheckpointHeaderSize);
  EXPECT_TRUE(ParseCheckpoint(empty.data(), empty.size()).value().variables.empty());
}

TEST(Checkpoint, LayoutIsTheDocumentedOne) {
  const Checkpoint c = TrickyCheckpoint();
  const std::string bytes = SerializeCheckpoint(c).value();
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  EXPECT_EQ(bytes.substr(0, 4), "GECK");
  EXPECT_EQ(om::LoadU32(p + kCkptOffVersion), 1u);
  EXPECT_EQ(om::LoadU32(p + kCkptOffHeaderSize), 64u);
  EXPECT_EQ(om::LoadU64(p + kCkptOffTotalLength), bytes.size());
  EXPECT_EQ(om::LoadU64(p + kCkptOffReserved), 0u);
  std::string zeroed = bytes;
  om::StoreU32(reinterpret_cast<uint8_t*>(zeroed.data()) + kCkptOffChecksum, 0);
  EXPECT_EQ(om::LoadU32(p + kCkptOffChecksum), om::Crc32c(0, zeroed.data(), zeroed.size()));
  const uint64_t index_offset = om::LoadU64(p + kCkptOffIndexOffset);
  const uint64_t index_size = om::LoadU64(p + kCkptOffIndexSize);
  const uint64_t data_offset = om::LoadU64(p + kCkptOffDataOffset);
  const uint64_t data_size = om::LoadU64(p + kCkptOffDataSize);
  EXPECT_EQ(index_offset, 64u);
  EXPECT_EQ(data_offset, om::AlignUp(64 + index_size, 64));
  EXPECT_EQ(data_offset + data_size, bytes.size());
  proto::CheckpointProto index;
  ASSERT_TRUE(index.ParseFromArray(p + index_offset, static_cast<int>(index_size)));
  ASSERT_EQ(index.vars_size(), static_cast<int>(c.variables.size()));
  EXPECT_EQ(index.var_info(), c.var_info);
  for (int i = 0; i < index.vars_size(); ++i) {
    const proto::CheckpointVarProto& v = index.vars(i);
    EXPECT_EQ(v.data_offset() % 64, 0u) << v.name();
    EXPECT_EQ(v.data_size(), c.variables[i].value.nbytes()) << v.name();
    EXPECT_EQ(std::memcmp(p + data_offset + v.data_offset(), c.variables[i].value.raw_data(), v.data_size()), 0);
  }
}

TEST(Checkpoint, SerializeRefusesInconsistentVariables) {
  Checkpoint c;
  c.variables.push_back(Variable<float>("w", DataType::kFloat, {2}, {1, 2}));
  c.variables.push_back(c.variables[0]);
  Status dup = SerializeCheckpoint(c).status();
  EXPECT_EQ(dup.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(dup.message().find("'w' appears twice"), std::string::npos) << dup.message();
  c.variables.resize(1);
  c.variables[0].desc = Desc({3});
  Status mismatch = SerializeCheckpoint(c).status();
  EXPECT_EQ(mismatch.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mismatch.message().find("does not match desc float32[3]"), std::string::npos) << mismatch.message();
  c.variables[0].desc = Desc({2});
  c.variables[0].name.clear();
  EXPECT_EQ(SerializeCheckpoint(c).status().code(), StatusCode::kInvalidArgument);
  c.variables[0].name = "w";
  c.variables[0].desc = Desc({-1});
  EXPECT_EQ(SerializeCheckpoint(c).status().code(), StatusCode::kInvalidArgument);
}

// --- corrupt and hostile files ---

void Reseal(std::string* file) {
  auto* p = reinterpret_cast<uint8_t*>(file->data());
  om::StoreU32(p + kCkptOffChecksum, 0);
  om::StoreU32(p + kCkptOffChecksum, om::Crc32c(0, file->data(), file->size()));
}

// A file in the documented layout around any index and data region (so hostile indexes get a valid checksum).
std::string Assemble(const proto::CheckpointProto& index, const std::string& data) {
  std::string idx;
  EXPECT_TRUE(index.SerializeToString(&idx));
  const uint64_t data_offset = om::AlignUp(64 + idx.size(), 64);
  std::string file(data_offset + data.size(), '\0');
  auto* p = reinterpret_cast<uint8_t*>(file.data());
  std::memcpy(p, "GECK", 4);
  om::StoreU32(p + kCkptOffVersion, kCheckpointVersion);
  om::StoreU32(p + kCkptOffHeaderSize, kCheckpointHeaderSize);
  om::StoreU64(p + kCkptOffTotalLength, file.size());
  om::StoreU64(p + kCkptOffIndexOffset, 64);
  om::StoreU64(p + kCkptOffIndexSize, idx.size());
  om::StoreU64(p + kCkptOffDataOffset, data_offset);
  om::StoreU64(p + kCkptOffDataSize, data.size());
  std::memcpy(p + 64, idx.data(), idx.size());
  std::memcpy(p + data_offset, data.data(), data.size());
  Reseal(&file);
  return file;
}

Status ParseStatus(const std::string& file) { return ParseCheckpoint(file.data(), file.size()).status(); }

#define EXPECT_DATA_LOSS(file, text)                                                     \
  do {                                                                                   \
    Status s_ = ParseStatus(file);                                                       \
    EXPECT_EQ(s_.code(), StatusCode::kDataLoss) << s_.ToString();                        \
    EXPECT_NE(s_.message().find(text), std::string::npos) << "want '" << (text) << "' in: " << s_.message(); \
  } while (0)

TEST(Checkpoint, DamagedContainerIsDataLoss) {
  const std::string good = SerializeCheckpoint(TrickyCheckpoint()).value();
  EXPECT_DATA_LOSS(good.substr(0, good.size() - 1), "truncated: its header says");
  EXPECT_DATA_LOSS(good.substr(0, 40), "less than its 64-byte header");
  EXPECT_DATA_LOSS(std::string(), "does not start with \"GECK\"");
  EXPECT_DATA_LOSS(good + "x", "(trailing bytes)");
  std::string flipped = good;
  flipped[flipped.size() - 5] ^= 0x10;  // inside the last variable's bytes
  EXPECT_DATA_LOSS(flipped, "checksum mismatch");
  std::string magic = good;
  magic[3] = 'X';
  EXPECT_DATA_LOSS(magic, "does not start with \"GECK\"");
  std::string version = good;
  om::StoreU32(reinterpret_cast<uint8_t*>(version.data()) + kCkptOffVersion, 2);
  EXPECT_DATA_LOSS(version, "checkpoint format version 2, this build reads version 1");
  std::string header_size = good;
  om::StoreU32(reinterpret_cast<uint8_t*>(header_size.data()) + kCkptOffHeaderSize, 128);
  EXPECT_DATA_LOSS(header_size, "header size 128");
  std::string reserved = good;
  reserved[kCkptOffReserved] = 1;
  Reseal(&reserved);
  EXPECT_DATA_LOSS(reserved, "reserved bytes are not zero");
}

TEST(Checkpoint, HeaderRegionsAreCheckedBeforeUse) {
  const std::string good = SerializeCheckpoint(TrickyCheckpoint()).value();
  auto edit = [&](size_t field, uint64_t value) {
    std::string f = good;
    om::StoreU64(reinterpret_cast<uint8_t*>(f.data()) + field, value);
    Reseal(&f);
    return f;
  };
  EXPECT_DATA_LOSS(edit(kCkptOffIndexSize, uint64_t{1} << 62), "index [64, +4611686018427387904) lies outside");
  EXPECT_DATA_LOSS(edit(kCkptOffIndexOffset, ~uint64_t{0}), "index");
  EXPECT_DATA_LOSS(edit(kCkptOffIndexOffset, 8), "lies outside the file's");  // inside the header
  EXPECT_DATA_LOSS(edit(kCkptOffDataSize, ~uint64_t{0} - 63), "data region");
  EXPECT_DATA_LOSS(edit(kCkptOffDataOffset, 64), "index and data region overlap");
  EXPECT_DATA_LOSS(edit(kCkptOffDataOffset, 65), "not a multiple of 64");
  EXPECT_DATA_LOSS(edit(kCkptOffIndexSize, 3), "index does not parse");
}

TEST(Checkpoint, HostileIndexesAreDataLoss) {
  const std::string data(256, '\x5a');
  auto var = [](proto::CheckpointProto* index, const std::string& name, Dims dims, uint64_t offset, uint64_t size,
                DataType dt = DataType::kFloat) {
    proto::CheckpointVarProto* v = index->add_vars();
    v->set_name(name);
    om::DescToProto(Desc(std::move(dims), dt), v->mutable_desc());
    v->set_data_offset(offset);
    v->set_data_size(size);
  };
  proto::CheckpointProto ok;
  var(&ok, "a", {16}, 0, 64);
  var(&ok, "b", {4}, 64, 16);
  ASSERT_TRUE(ParseStatus(Assemble(ok, data)).ok()) << ParseStatus(Assemble(ok, data)).ToString();

  proto::CheckpointProto overlap;
  var(&overlap, "a", {32}, 0, 128);
  var(&overlap, "b", {4}, 64, 16);
  EXPECT_DATA_LOSS(Assemble(overlap, data), "'a' and 'b' overlap");
  proto::CheckpointProto outside;
  var(&outside, "a", {64}, 64, 256);
  EXPECT_DATA_LOSS(Assemble(outside, data), "'a': bytes [64, +256) lie outside the data region of 256 bytes");
  proto::CheckpointProto wrapping;
  var(&wrapping, "a", {4}, ~uint64_t{0} - 63, 16);
  EXPECT_DATA_LOSS(Assemble(wrapping, data), "lie outside the data region");
  proto::CheckpointProto absurd;  // 2^40 floats: no allocation is attempted
  var(&absurd, "a", {int64_t{1} << 40}, 0, uint64_t{1} << 42);
  EXPECT_DATA_LOSS(Assemble(absurd, data), "lie outside the data region");
  proto::CheckpointProto overflow;  // dims whose byte count overflows
  var(&overflow, "a", {int64_t{1} << 40, int64_t{1} << 40}, 0, 16);
  EXPECT_DATA_LOSS(Assemble(overflow, data), "checkpoint variable 'a'");
  proto::CheckpointProto size_mismatch;
  var(&size_mismatch, "a", {4}, 0, 20);
  EXPECT_DATA_LOSS(Assemble(size_mismatch, data), "its desc float32[4] holds 16 bytes, the index says 20");
  proto::CheckpointProto unaligned;
  var(&unaligned, "a", {4}, 8, 16);
  EXPECT_DATA_LOSS(Assemble(unaligned, data), "data offset 8 is not a multiple of 64");
  proto::CheckpointProto twice;
  var(&twice, "a", {4}, 0, 16);
  var(&twice, "a", {4}, 64, 16);
  EXPECT_DATA_LOSS(Assemble(twice, data), "'a' appears twice");
  proto::CheckpointProto unnamed;
  var(&unnamed, "", {4}, 0, 16);
  EXPECT_DATA_LOSS(Assemble(unnamed, data), "variable #0 has no name");
  proto::CheckpointProto dynamic;
  var(&dynamic, "a", {-1}, 0, 0);
  EXPECT_DATA_LOSS(Assemble(dynamic, data), "static numeric tensor");
  proto::CheckpointProto strings;
  var(&strings, "a", {1}, 0, 32, DataType::kString);
  EXPECT_DATA_LOSS(Assemble(strings, data), "static numeric tensor");
  proto::CheckpointProto bad_dtype = ok;
  bad_dtype.mutable_vars(0)->mutable_desc()->set_dtype(99);
  EXPECT_DATA_LOSS(Assemble(bad_dtype, data), "invalid data type 99");
  proto::CheckpointProto bad_format = ok;
  bad_format.mutable_vars(0)->mutable_desc()->set_format(77);
  EXPECT_DATA_LOSS(Assemble(bad_format, data), "invalid format 77");
}

// --- sessions ---

void* Memory(VarManager& vm, const std::string& name) {
  const VarAddr a = vm.GetVarAddr(name, vm.GetCurVarDesc(name).value()).value();
  return vm.GetVarMemoryAddr(a.logical, a.mem_type).value();
}

class CheckpointSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(a_.Init({}).ok());
    ASSERT_TRUE(b_.Init({}).ok());
    ASSERT_TRUE(a_.AssignVarMem(Var("w", Desc({4, 4}))).ok());
    ASSERT_TRUE(a_.AssignVarMem(Var("step", Desc({}, DataType::kInt64))).ok());
    VarRequest constant = Var("c", Desc({2}));
    constant.kind = VarKind::kConstant;
    ASSERT_TRUE(a_.AssignVarMem(constant).ok());
    auto* w = static_cast<float*>(Memory(a_, "w"));
    for (int i = 0; i < 16; ++i) w[i] = i == 5 ? Bits<float>(0x7fc0beef) : 0.5f * static_cast<float>(i) - 3;
    *static_cast<int64_t*>(Memory(a_, "step")) = 41;
  }
  uint64_t Copies(rt::MemcpyKind k) const { return device_.record().memcpys[static_cast<int>(k)]; }

  // Device memory the host may not touch: every byte moves through the device's Memcpy.
  rt::testing::RecordingDevice device_{rt::testing::RecordingDeviceOptions{false, 1}};
  VarManager a_{1, &device_};
  VarManager b_{2, &device_};  // a fresh session
};

TEST_F(CheckpointSessionTest, SaveFromOneSessionRestoreIntoAnother) {
  const uint64_t reads = Copies(rt::MemcpyKind::kDeviceToHost);
  auto saved = SaveVariables(&a_, &device_);
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  EXPECT_EQ(Copies(rt::MemcpyKind::kDeviceToHost), reads + 2);
  ASSERT_EQ(saved->variables.size(), 2u);  // the constant belongs to its model
  EXPECT_EQ(saved->variables[0].name, "step");
  EXPECT_EQ(saved->variables[1].name, "w");
  EXPECT_FALSE(saved->var_info.empty());

  char dir_template[] = "/tmp/ge_ckpt_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string path = dir + "/session.ckpt";
  ASSERT_TRUE(WriteCheckpointFile(path, *saved).ok());
  auto loaded = ReadCheckpointFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ExpectSameCheckpoint(*saved, *loaded);

  const uint64_t writes = Copies(rt::MemcpyKind::kHostToDevice);
  ASSERT_TRUE(RestoreVariables(*loaded, &b_, &device_, 3).ok());
  EXPECT_EQ(Copies(rt::MemcpyKind::kHostToDevice), writes + 2);
  EXPECT_EQ(std::memcmp(Memory(b_, "w"), Memory(a_, "w"), 64), 0);
  EXPECT_EQ(*static_cast<int64_t*>(Memory(b_, "step")), 41);
  EXPECT_TRUE(b_.IsVarReady("w", Desc({4, 4}), 3));
  EXPECT_FALSE(b_.IsVarReady("w", Desc({4, 4}), 0));
  EXPECT_FALSE(b_.IsVarExist("c"));
  // The VAR_INFO travels along: a session can restore the logical layout from it.
  VarManager c(3, &device_);
  ASSERT_TRUE(c.Init({}).ok());
  ASSERT_TRUE(RestoreVarInfo(loaded->var_info.data(), loaded->var_info.size(), &c).ok());
  EXPECT_EQ(c.GetVarAddr("w", Desc({4, 4})).value().logical, a_.GetVarAddr("w", Desc({4, 4})).value().logical);
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

// A variable with no elements round-trips, and its restore copies nothing to the device.
TEST_F(CheckpointSessionTest, AnEmptyVariableIsRestoredWithoutADeviceCopy) {
  ASSERT_TRUE(a_.AssignVarMem(Var("none", Desc({0, 3}))).ok());
  auto saved = SaveVariables(&a_, &device_);
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  ASSERT_EQ(saved->variables.size(), 3u);
  const uint64_t writes = Copies(rt::MemcpyKind::kHostToDevice);
  ASSERT_TRUE(RestoreVariables(*saved, &b_, &device_).ok());
  EXPECT_EQ(Copies(rt::MemcpyKind::kHostToDevice), writes + 2);  // w and step
  EXPECT_EQ(b_.GetCurVarDesc("none").value().shape.dims(), (Dims{0, 3}));
  EXPECT_EQ(*static_cast<int64_t*>(Memory(b_, "step")), 41);
}

TEST_F(CheckpointSessionTest, SaveNamedVariablesOnly) {
  auto saved = SaveVariables(&a_, &device_, {"w", "c"});
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  ASSERT_EQ(saved->variables.size(), 2u);
  EXPECT_EQ(saved->variables[0].name, "w");
  EXPECT_EQ(saved->variables[1].name, "c");
  Status unknown = SaveVariables(&a_, &device_, {"w", "nope"}).status();
  EXPECT_EQ(unknown.code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.message().find("'nope'"), std::string::npos) << unknown.message();
  EXPECT_EQ(SaveVariables(&a_, &device_, {"w", "w"}).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(CheckpointSessionTest, RestoreOverwritesAnExistingVariable) {
  const Checkpoint saved = SaveVariables(&a_, &device_).value();
  *static_cast<int64_t*>(Memory(a_, "step")) = 7;
  static_cast<float*>(Memory(a_, "w"))[0] = 100;
  ASSERT_TRUE(RestoreVariables(saved, &a_, &device_).ok());
  EXPECT_EQ(*static_cast<int64_t*>(Memory(a_, "step")), 41);
  EXPECT_EQ(static_cast<float*>(Memory(a_, "w"))[0], -3.0f);
}

TEST_F(CheckpointSessionTest, RestoreIntoASmallerOrDifferentVariableFailsBeforeChangingAnything) {
  const Checkpoint saved = SaveVariables(&a_, &device_).value();
  ASSERT_TRUE(b_.AssignVarMem(Var("w", Desc({2, 2}))).ok());
  Status smaller = RestoreVariables(saved, &b_, &device_);
  EXPECT_EQ(smaller.code(), StatusCode::kInvalidArgument);
  for (const char* text : {"checkpoint variable 'w' is float32[4,4] (64 bytes)",
                           "the session's variable is float32[2,2] (16 bytes)", "restore into a smaller variable"}) {
    EXPECT_NE(smaller.message().find(text), std::string::npos) << "want '" << text << "' in: " << smaller.message();
  }
  EXPECT_FALSE(b_.IsVarExist("step"));  // checked before "step" (saved first) was placed

  VarManager other(4, &device_);
  ASSERT_TRUE(other.Init({}).ok());
  ASSERT_TRUE(other.AssignVarMem(Var("w", Desc({16}, DataType::kInt32))).ok());
  Status different = RestoreVariables(saved, &other, &device_);
  EXPECT_EQ(different.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(different.message().find("is int32[16] (64 bytes): cannot restore into a variable of another dtype"),
            std::string::npos)
      << different.message();
  VarManager nhwc(5, &device_);
  ASSERT_TRUE(nhwc.Init({}).ok());
  ASSERT_TRUE(nhwc.AssignVarMem(Var("step", Desc({}, DataType::kInt64))).ok());
  ASSERT_TRUE(nhwc.AssignVarMem(Var("w", Desc({1, 4, 2, 2}, Format::kNHWC))).ok());
  Checkpoint blocked;
  blocked.variables.push_back(Variable<float>("w", DataType::kFloat, {1, 4, 2, 2}, std::vector<float>(16)));
  EXPECT_EQ(RestoreVariables(blocked, &nhwc, &device_).code(), StatusCode::kInvalidArgument);  // format differs
}

TEST_F(CheckpointSessionTest, RestorePlacementObeysTheSessionLimit) {
  VarManager tiny(6, &device_);
  ASSERT_TRUE(tiny.Init({0, 32 * 1024}).ok());  // 5 KiB of variables
  Checkpoint big;
  big.variables.push_back(Variable<float>("big", DataType::kFloat, {4096}, std::vector<float>(4096)));
  EXPECT_EQ(RestoreVariables(big, &tiny, &device_).code(), StatusCode::kResourceExhausted);
}

// --- files ---

class CheckpointFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/ge_ckpt_XXXXXX";
    ASSERT_NE(::mkdtemp(dir_template), nullptr);
    dir_ = dir_template;
  }
  void TearDown() override {
    for (const std::string& f : Files()) ::unlink((dir_ + "/" + f).c_str());
    ::rmdir(dir_.c_str());
  }
  std::vector<std::string> Files() const {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir_.c_str());
    for (dirent* e = d ? ::readdir(d) : nullptr; e != nullptr; e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.push_back(e->d_name);
    }
    if (d != nullptr) ::closedir(d);
    return names;
  }
  std::string dir_;
};

TEST_F(CheckpointFileTest, AtomicWriteLeavesOnlyTheCheckpoint) {
  const std::string path = dir_ + "/model.ckpt";
  const Checkpoint first = TrickyCheckpoint();
  ASSERT_TRUE(WriteCheckpointFile(path, first).ok());
  EXPECT_EQ(Files(), std::vector<std::string>{"model.ckpt"});
  Checkpoint second;
  second.variables.push_back(Variable<int64_t>("step", DataType::kInt64, {}, {2}));
  ASSERT_TRUE(WriteCheckpointFile(path, second).ok());  // replaces the first
  EXPECT_EQ(Files(), std::vector<std::string>{"model.ckpt"});
  ExpectSameCheckpoint(second, ReadCheckpointFile(path).value());
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes, SerializeCheckpoint(second).value());
}

TEST_F(CheckpointFileTest, FailedWriteLeavesNothingBehind) {
  Checkpoint bad;
  bad.variables.push_back(Variable<float>("w", DataType::kFloat, {2}, {1, 2}));
  bad.variables[0].desc = Desc({3});
  EXPECT_EQ(WriteCheckpointFile(dir_ + "/bad.ckpt", bad).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(WriteCheckpointFile(dir_ + "/missing/dir.ckpt", TrickyCheckpoint()).code(), StatusCode::kNotFound);
  EXPECT_TRUE(Files().empty());
}

// EFBIG through the process's file-size limit (SIGXFSZ ignored), restored afterwards.
TEST_F(CheckpointFileTest, FileTooLargeIsResourceExhaustedAndLeavesNothingBehind) {
  Checkpoint big;
  big.variables.push_back(Variable<float>("w", DataType::kFloat, {4096}, std::vector<float>(4096, 1.0f)));
  const std::string path = dir_ + "/big.ckpt";
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit low = saved;
  low.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
  void (*saved_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  const Status s = WriteCheckpointFile(path, big);
  std::signal(SIGXFSZ, saved_handler);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &saved), 0);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_TRUE(Files().empty());
}

TEST_F(CheckpointFileTest, ReadErrorsAreClear) {
  Status missing = ReadCheckpointFile(dir_ + "/none.ckpt").status();
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("none.ckpt"), std::string::npos) << missing.message();
  EXPECT_EQ(ReadCheckpointFile(dir_).status().code(), StatusCode::kInvalidArgument);  // a directory

  const std::string path = dir_ + "/model.ckpt";
  ASSERT_TRUE(WriteCheckpointFile(path, TrickyCheckpoint()).ok());
  Status capped = ReadCheckpointFile(path, 100).status();
  EXPECT_EQ(capped.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(capped.message().find("more than the 100-byte limit"), std::string::npos) << capped.message();
  // A sparse file just over the default cap is refused without being read.
  const std::string huge = dir_ + "/huge.ckpt";
  std::ofstream(huge).close();
  ASSERT_EQ(::truncate(huge.c_str(), static_cast<off_t>(kMaxCheckpointFileBytes + 1)), 0);
  EXPECT_EQ(ReadCheckpointFile(huge).status().code(), StatusCode::kResourceExhausted);

  const std::string empty = dir_ + "/empty.ckpt";
  std::ofstream(empty).close();
  Status e = ReadCheckpointFile(empty).status();
  EXPECT_EQ(e.code(), StatusCode::kDataLoss);
  EXPECT_NE(e.message().find("empty.ckpt"), std::string::npos) << e.message();
  const std::string cut = dir_ + "/cut.ckpt";
  std::ofstream(cut, std::ios::binary) << SerializeCheckpoint(TrickyCheckpoint()).value().substr(0, 100);
  EXPECT_EQ(ReadCheckpointFile(cut).status().code(), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace ge::var
