// ge::UsableCpuCount (include/ge/model.h): the CPU device's own count, which the runtime's default thread count
// also uses.
#include "ge/model.h"
#include "rt/cpu/cpu_quota.h"

namespace ge {

int UsableCpuCount() { return rt::UsableCpuCount(); }

}  // namespace ge
