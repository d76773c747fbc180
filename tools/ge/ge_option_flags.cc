#include "ge_option_flags.h"

#include "base/option_table.h"

namespace ge::cli {

StatusOr<std::map<std::string, std::string>> GeOptionsFromFlags(const Flags& flags, uint32_t readers) {
  GE_ASSIGN_OR_RETURN(auto options, OptionPairsFromFlags(flags));
  GE_RETURN_IF_ERROR(CheckOptionsAgainstTable(options, readers, "--option"));
  return options;
}

}  // namespace ge::cli
