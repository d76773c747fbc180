// Python values as ge attributes (include/ge/graph.h AttrValue): int (and bool) → int, float → float, str →
// string, numpy array → tensor, a list of ints / floats / strs → ints / floats / strings (a list with any float is
// floats). Anything else is a TypeError naming the attribute.
#pragma once
#include <pybind11/pybind11.h>

#include "ge/graph.h"

namespace ge::python {

Attrs AttrsFromPython(const pybind11::handle& attrs);

}  // namespace ge::python
