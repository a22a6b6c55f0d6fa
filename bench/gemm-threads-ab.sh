#!/usr/bin/env bash
# A/B of the threaded GEMM schemes on a many-core host (docs/gemm.md, "Threads on the
# packed path"): the per-thread grid (shared_from 0) against one shared B block
# (shared_from 2; BLOCKS lists the GB_BLOCK settings, default both at the family's nc),
# interleaved over ROUNDS rounds, with numpy's time in each round. Wall time, best of 3
# calls per process (native/bench/gemm_rate.cpp).
# Usage: [BLOCKS="0,0,0,-1,0 0,0,4096,-1,2"] bench/gemm-threads-ab.sh GEMM_RATE_BINARY [ROUNDS] [N] [THREADS...]
set -u
bin=$1; rounds=${2:-4}; n=${3:-4096}; shift 3 2>/dev/null || shift $#
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(16 8 4)
py=$(command -v python3)
np_rate() {  # dtype letter, threads
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=$2 OMP_NUM_THREADS=$2 "$py" -c "
import numpy as np, time
n=$n; dt=np.float64 if '$1'=='d' else np.float32
r=np.random.default_rng(1); a=r.standard_normal((n,n)).astype(dt); b=r.standard_normal((n,n)).astype(dt)
a@b; best=1e9
for _ in range(3):
    t=time.perf_counter(); a@b; best=min(best,time.perf_counter()-t)
print(f'$1 {n}x{n}x{n} t$2 numpy: {2*n**3/best/1e9:.1f} GFLOP/s')"
}
for r in $(seq 1 "$rounds"); do
  echo "# round $r"
  for t in "${threads[@]}"; do
    for d in d s; do
      for b in ${BLOCKS:-0,0,0,-1,0 0,0,0,-1,2}; do GB_PEAK=0 GB_BLOCK=$b "$bin" $d $n $n $n $t 3; done
      np_rate $d $t
    done
  done
done
