// Backward rules of src/special (heaviside, laguerrePolynomialL, frexp).
export {};
