// Gated DeltaNet (docs/gdn.md): per sequence n and value head hv, with key head
// h = ⌊hv / (HV/H)⌋ and state S ∈ ℝ^{dk×dv},
//   S_t = exp(g_t)·(I − β_t·k_t·k_tᵀ)·S_{t−1} + β_t·k_t·v_tᵀ,   o_t = S_tᵀ·(scale·q_t),
// q and k optionally divided by sqrt(Σx² + 1e-6) first. Element (b, t, head, d) of q/k/v/o is
// at b·sB + t·sT + head·sH + d (GdnProblem::strides); beta/g likewise with dim 1. States are
// (seqs, HV, dk, dv) row-major. status (seqs, HV): 0 ok, 1 a non-finite q/k/v/β/initial-state
// value, 2 a g that is > 0, NaN or −∞; that (n, hv)'s outputs are NaN then.
#pragma once
#include <cstdint>

#include "lapis/common.hpp"

namespace lapis {

struct GdnProblem {
  index batch = 0, time = 0, heads = 0, vheads = 0, dk = 0, dv = 0, seqs = 0;
  bool bhtd = false;    // (B, heads, T, d) instead of (B, T, heads, d)
  bool varlen = false;  // sequences packed in batch row 0 (else sequence n is row n)
  const int32_t* seq_start = nullptr;  // seqs entries: first time index of each sequence
  const int32_t* seq_len = nullptr;    // seqs entries
  int chunk = 64;
  double scale = 1;
  bool qk_l2norm = false;
  // gdn_backward: chunks between the saved states (0: every chunk while they take ≤ 32 MiB per
  // task, else about √chunks; the chunks in between are recomputed from the last saved state).
  index backward_state_stride = 0;
  // gdn_forward: state columns per task (0: all of them, or blocks of ≥ 32 when there are fewer
  // (sequence, value head) pairs than threads; the columns are independent recurrences).
  index forward_value_block = 0;
};

// Strides (batch, time, head) of a (B, T, heads, dim) / (B, heads, T, dim) tensor.
struct GdnStrides {
  index sB, sT, sH;
};
inline GdnStrides gdn_strides(const GdnProblem& p, index heads, index dim) {
  return p.bhtd ? GdnStrides{heads * p.time * dim, dim, p.time * dim} : GdnStrides{p.time * heads * dim, heads * dim, dim};
}

// Chunked (WY) forward: o (v's shape), final_state (seqs, HV, dk, dv), status (seqs, HV).
// initial_state may be null (zeros). Parallel over (sequence, value head).
template <class T>
void gdn_forward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g, const T* initial_state,
                 T* o, T* final_state, int32_t* status);

// One token for `seqs` sequences: q, k (seqs, heads, dk), v (seqs, vheads, dv), beta, g
// (seqs, vheads), state (seqs, vheads, dk, dv) → o (seqs, vheads, dv), new_state, status.
template <class T>
void gdn_recurrent_step(index seqs, index heads, index vheads, index dk, index dv, double scale, bool qk_l2norm,
                        const T* state, const T* q, const T* k, const T* v, const T* beta, const T* g, T* o, T* new_state,
                        int32_t* status);

// Gradients of Σ dO⊙o + Σ dFinal⊙finalState with respect to q, k, v, beta, g and the initial
// state (d_initial_state written only when initial_state is given; dFinal null = zero). The
// forward is recomputed inside; with qk_l2norm dq and dk are those of the raw q and k.
// Parallel over (sequence, key head).
template <class T>
void gdn_backward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g,
                  const T* initial_state, const T* d_o, const T* d_final, T* dq, T* dk, T* dv, T* dbeta, T* dg,
                  T* d_initial_state, int32_t* status);

}  // namespace lapis
