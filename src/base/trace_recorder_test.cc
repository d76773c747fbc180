#include "base/trace_recorder.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "base/trace_json.h"

namespace ge::trace {
namespace {

TEST(TraceRecorderTest, KeepsKernelAndPhaseSlices) {
  TraceRecorder r(16, "test");
  TraceLabel conv{"conv1", "kernel", "{\"op\":\"Conv\"}"};
  r.NameTrack(StreamTrack(0), "stream 0");
  r.AddKernelSlice(StreamTrack(0), &conv, 1000, 2500);
  { TraceScope load(&r, "load"); }
  std::vector<TraceSlice> s = r.Snapshot();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].label, &conv);
  EXPECT_EQ(s[0].track, 100);
  EXPECT_EQ(s[0].duration_ns, 2500);
  EXPECT_EQ(s[1].name, "load");
  EXPECT_EQ(s[1].category, "load");  // TraceScope's default category
  EXPECT_GE(s[1].duration_ns, 0);
  EXPECT_EQ(r.track_names().at(100), "stream 0");
  r.AddSlice(LoadTrack(1), "prepare conv1", "compile", 10, 20, "{\"impl\":\"x\"}");
  s = r.Snapshot();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].track, LoadTrack(1));
  EXPECT_EQ(s[2].category, "compile");
  EXPECT_EQ(s[2].args_json, "{\"impl\":\"x\"}");
  EXPECT_EQ(s[2].start_ns, 10);
  EXPECT_EQ(s[2].duration_ns, 20);
}

TEST(TraceRecorderTest, NullRecorderScopeDoesNothing) { TraceScope nothing(nullptr, "x"); }

TEST(TraceRecorderTest, DropsPastCapacityAndCounts) {
  TraceRecorder r(5);
  TraceLabel l{"k", "kernel", ""};
  for (int i = 0; i < 8; ++i) r.AddKernelSlice(0, &l, i, 1);
  for (int i = 0; i < 7; ++i) r.AddSlice(0, "p", "load", i, 1);
  EXPECT_EQ(r.Snapshot().size(), 10u);
  EXPECT_EQ(r.dropped(), 5u);
}

TEST(TraceRecorderTest, ThreadsRecordConcurrentlyAcrossChunks) {
  TraceRecorder r(100000);
  TraceLabel l{"k", "kernel", ""};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&r, &l, t] {
      for (int i = 0; i < 10000; ++i) r.AddKernelSlice(WorkerTrack(t), &l, i, 1);
    });
  }
  for (auto& t : threads) t.join();
  std::vector<TraceSlice> s = r.Snapshot();
  ASSERT_EQ(s.size(), 40000u);
  int per_track[4] = {};
  for (const TraceSlice& x : s) {
    ASSERT_EQ(x.label, &l);
    ++per_track[x.track - WorkerTrack(0)];
  }
  for (int n : per_track) EXPECT_EQ(n, 10000);
  EXPECT_EQ(r.dropped(), 0u);
}

TEST(TraceJsonTest, WritesMetadataSortedSlicesAndEscapes) {
  TraceRecorder r(16, "ge \"run\"");
  TraceLabel odd{"a\"b\\c\n", "kernel", "{\"bytes\":4}"};
  r.NameTrack(StreamTrack(1), "stream 1");
  r.AddKernelSlice(StreamTrack(1), &odd, 5000, 1234);
  r.AddSlice(kHostTrack, "inner", "load", 200, 100);
  r.AddSlice(kHostTrack, "outer", "load", 200, 900);
  const std::string json = TraceToJson(r);
  EXPECT_NE(json.find("\"traceEvents\":["), std::string::npos);
  EXPECT_NE(json.find("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"ts\":0,\"args\":{\"name\":"
                      "\"ge \\\"run\\\"\"}}"),
            std::string::npos);
  EXPECT_NE(json.find("\"args\":{\"name\":\"stream 1\"}"), std::string::npos);
  EXPECT_NE(json.find("{\"name\":\"a\\\"b\\\\c\\n\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":1,\"tid\":101,"
                      "\"ts\":5.000,\"dur\":1.234,\"args\":{\"bytes\":4}}"),
            std::string::npos);
  // The enclosing phase first: same start, longer first.
  EXPECT_LT(json.find("\"outer\""), json.find("\"inner\""));
  EXPECT_NE(json.find("\"dropped_slices\":0"), std::string::npos);
  EXPECT_EQ(JsonQuote(std::string("\x01", 1)), "\"\\u0001\"");
}

TEST(TraceJsonTest, WriteFileNamesABadPath) {
  TraceRecorder r;
  Status s = WriteTraceFile(r, "/nonexistent-dir/x.json");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent-dir/x.json"), std::string::npos);
}

}  // namespace
}  // namespace ge::trace
