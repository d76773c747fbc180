// Where(condition, X, Y) as a prepared three-way broadcasting select (WhereKernel, "exec.where"): the output's dims
// with extent 1 dropped and neighbours with the same broadcast pattern of all three inputs merged, then rows of
// `inner` elements in which each input is contiguous or fixed. Elements move as 1, 2, 4 or 8-byte words, so any
// dtype of that size is bit-exact. The causal mask of a decoder (a [1,1,L,L] condition over [1,H,L,L] scores with
// a scalar fill) is H rows of L*L with the fill fixed.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Where the fast kernel supports (dims that vary between runs, a condition that
// is not bool, a loop nest deeper than 8 after merging): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareWhere(const PrepareRequest& request);

}  // namespace ge::exec
