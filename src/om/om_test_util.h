// Test helpers: a small IR model and .om images built from it.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "ir/text_parser.h"
#include "om/ir_om.h"

namespace ge::om::testing {

inline std::unique_ptr<ir::Model> SampleModel() {
  auto m = ir::ParseModelText(R"(
    ir_version 8
    opset "" 17
    graph sample(%x: float32[n,4]) {
      const %w: float32[4,4] = <elided 16 elements>
      const %w2: float32[4,4] = <elided 16 elements>
      const %b: float16[4] = [1, 2, 3, 4]
      mm: %y = MatMul(%x, %w)
      mm2: %y2 = MatMul(%y, %w2)
      add: %z = Add(%y2, %b) @ref
      return %z
    })");
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  float* w = const_cast<float*>((*m)->graph->FindValue("w")->const_value()->data<float>());
  for (int i = 0; i < 16; ++i) w[i] = static_cast<float>(i) * 0.25f;
  return std::move(m).value();
}

inline OmWriteOptions SampleOptions() {
  OmWriteOptions o;
  o.model_name = "sample";
  return o;
}

inline std::vector<uint8_t> SampleImage() {
  auto m = SampleModel();
  auto img = WriteIrOm(*m, SampleOptions(), /*inline_below=*/16);
  EXPECT_TRUE(img.ok()) << img.status().ToString();
  return img.ok() ? std::move(img).value() : std::vector<uint8_t>();
}

// Recomputes the checksum after a test edits the image on purpose.
inline void Reseal(std::vector<uint8_t>* img) {
  StoreU32(img->data() + kOffChecksum, ComputeOmChecksum(img->data(), img->size()));
}

inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/ge_om_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace ge::om::testing
