// Event: a point in one stream's work that other streams (Stream::WaitEvent) or the host (Synchronize) wait for
// (GE's rtEvent). Each record is a new generation, so one event is reused across iterations: a wait captures the
// latest generation recorded when it is enqueued. Created by a Device; used only with that device's streams.
// Thread-safe.
#pragma once
#include <chrono>

#include "base/status.h"

namespace ge::rt {

using Duration = std::chrono::nanoseconds;
inline constexpr Duration kWaitForever = Duration::max();

class Event {
 public:
  virtual ~Event() = default;
  // Waits until every generation recorded before the call has executed. Timeout on expiry; the error of a
  // failed stream that reached the record point otherwise. OK at once if the event was never recorded.
  virtual Status Synchronize(Duration timeout = kWaitForever) = 0;
  // True when every generation recorded so far has executed.
  virtual bool Query() const = 0;
};

}  // namespace ge::rt
