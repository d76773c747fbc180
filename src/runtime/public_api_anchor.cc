// libge.so's own translation unit (a shared library needs one): the public API's implementation comes from the
// ge_runtime archive linked in whole (offline_model.cc, model_loader.cc), and ge::Status's from ge_base.
#include "ge/model.h"
