// Tensor: see include/ge/tensor.h (the public header holds the class; the library uses it as is).
#pragma once
#include <cstring>

#include "base/data_type.h"
#include "base/shape.h"
#include "base/status.h"
#include "ge/tensor.h"  // IWYU pragma: export
