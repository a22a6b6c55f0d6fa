// lapis/gdn: the Gated DeltaNet chunk solver (see issue 5).
export {};
