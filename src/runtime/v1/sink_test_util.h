// Test helpers of runtime/v1: a model in the IR text form compiled to an in-memory .om, and that image opened.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"
#include "om/om_writer.h"

namespace ge::runtime::testing {

struct Compiled {
  std::vector<uint8_t> bytes;
  compiler::CompileReport report;
};

// `options` carries the GE options; its other fields (variables, ...) are used as given.
inline Compiled CompileText(const std::string& text, compiler::CompileOptions options = {}) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  Compiled c;
  if (!m.ok()) return c;
  auto bytes = compiler::CompileToOm(**m, options, &c.report);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (bytes.ok()) c.bytes = std::move(*bytes);
  return c;
}

inline Compiled Compile(const std::string& text, std::map<std::string, std::string> ge_options = {}) {
  compiler::CompileOptions co;
  co.ge_options = std::move(ge_options);
  return CompileText(text, std::move(co));
}

// A reader over a copy of `bytes` (it keeps the copy alive); nullptr when the image does not verify.
inline std::shared_ptr<const om::OmReader> Open(const std::vector<uint8_t>& bytes) {
  auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
  auto r = om::OmReader::FromMemory(copy->data(), copy->size(), copy);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::shared_ptr<const om::OmReader>(std::move(*r)) : nullptr;
}

// The MODEL_DEF and TASK_INFO of a compiled image.
inline void ParseOm(const om::OmReader& reader, proto::ModelDefProto* def, proto::TaskListProto* tasks) {
  om::ByteSpan d = reader.partition(om::PartitionType::kModelDef);
  om::ByteSpan t = reader.partition(om::PartitionType::kTaskInfo);
  EXPECT_TRUE(def->ParseFromArray(d.data, static_cast<int>(d.size)));
  EXPECT_TRUE(tasks->ParseFromArray(t.data, static_cast<int>(t.size)));
}

// The image |bytes| with |edit| applied to its MODEL_DEF and TASK_INFO (the corrupt models a loader must refuse).
inline std::vector<uint8_t> EditOm(const std::vector<uint8_t>& bytes,
                                   const std::function<void(proto::ModelDefProto*, proto::TaskListProto*)>& edit) {
  auto reader = Open(bytes);
  if (reader == nullptr) return {};
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  ParseOm(*reader, &def, &tasks);
  edit(&def, &tasks);
  om::OmWriteOptions o;
  o.model_name = reader->header().name;
  o.model_type = reader->header().model_type;
  o.isa_features = reader->header().isa.features;
  om::OmWriter w(o);
  for (const om::PartitionInfo& p : reader->header().partitions) {
    std::string blob;
    if (p.type == om::PartitionType::kModelDef) {
      blob = def.SerializeAsString();
    } else if (p.type == om::PartitionType::kTaskInfo) {
      blob = tasks.SerializeAsString();
    } else {
      om::ByteSpan s = reader->partition(p.type);
      blob.assign(reinterpret_cast<const char*>(s.data), s.size);
    }
    EXPECT_TRUE(w.AddPartition(p.type, std::move(blob)).ok());
  }
  auto out = w.WriteToMemory();
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? std::move(*out) : std::vector<uint8_t>();
}

}  // namespace ge::runtime::testing
