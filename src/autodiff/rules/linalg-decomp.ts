// Backward rules of the decompositions and their composites (src/linalg: qr, svd, svdvals,
// pinv, lstsq, norm, cond, matrixRank).
export {};
