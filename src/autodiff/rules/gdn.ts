// Backward rules of src/gdn (chunkSolve, invUnitLower, chunkedForward).
export {};
