// Public elementwise functions of the tensor API (issue 13); filled by its owner.
export {};
